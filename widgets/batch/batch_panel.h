#pragma once
// Batch (issue 30, view 17): `once bench` from the studio — a folder of videos, the methods and
// budgets to compare, repetitions — run on a worker with progress and Cancel through the same
// core (eval/efficiency_bench.h: every method on the same frames, prompt and new tokens, Dense
// the reference), with the model folder, device and codebook file the session has open. The
// table of rows shows as it comes back, the speed-up panel goes to the charts, and Export Report
// writes one folder: the bench JSON (readable again by Charts ▸ Open), its rows and videos as
// CSV and the speed-up figure as PNG.
#include <QWidget>
#include <optional>

#include "eval/efficiency_bench_file.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace once::studio {

class BackgroundTask;
class StudioSession;

class BatchPanel : public QWidget {
    Q_OBJECT
  public:
    explicit BatchPanel(StudioSession* session, QWidget* parent = nullptr);
    ~BatchPanel() override;

    // ---- for the window and the tests ----
    QLineEdit* folderField() const { return folder_; }
    QListWidget* methodList() const { return methods_; }
    QLineEdit* budgetsField() const { return budgets_; }
    QSpinBox* repsBox() const { return reps_; }
    QSpinBox* newTokensBox() const { return newTokens_; }
    QPushButton* runButton() const { return run_; }
    QTableWidget* table() const { return table_; }
    BackgroundTask* task() const { return task_; }
    /// Why Run is disabled ("" when it can run).
    QString blocker() const;
    /// The videos of the folder that would be run.
    QStringList videos() const;
    const std::optional<once::EfficiencyBench>& bench() const { return bench_; }

    /// Starts the batch (false with blocker() when it cannot).
    bool run();
    /// Writes the report into `folder` (bench.json, bench_rows.csv, bench_videos.csv,
    /// bench_speedup.png). False with `error` set.
    bool exportReport(const QString& folder, QString* error = nullptr) const;

  signals:
    /// A finished batch: the window draws it in Charts ▸ Budget vs latency.
    void benchFinished(const once::EfficiencyBench& bench);

  private:
    void refresh();
    void showBench();
    void chooseFolder();
    void exportInteractive();

    StudioSession* session_;
    QLineEdit* folder_;
    QLabel* found_;
    QListWidget* methods_;
    QLineEdit* budgets_;
    QSpinBox* reps_;
    QSpinBox* warmup_;
    QSpinBox* newTokens_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* export_;
    QLabel* status_;
    QTableWidget* table_;
    BackgroundTask* task_;
    std::optional<once::EfficiencyBench> bench_;
};

}  // namespace once::studio
