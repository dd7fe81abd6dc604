#pragma once
// Codebook training from the studio: corpus (manifest or folder), backbone, all Stage-A/B options,
// cache folder and output file. Runs on a worker thread through once::Progress: one progress bar
// per stage with its ETA, live loss and code-usage curves, Cancel, and Resume (the Stage-A cache
// continues after its last committed shard, after a cancel or a crash). The finished codebook
// opens in the main view with one click.
#include <QWidget>
#include <map>
#include <string>

#include "session/pipeline_settings.h"
#include "tasks/qt_progress.h"

class QCustomPlot;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace once::studio {

class BackgroundTask;
class TrainerOptionsForm;
struct TrainingHistory;
struct TrainingRequest;

class TrainerPanel : public QWidget {
    Q_OBJECT
  public:
    explicit TrainerPanel(QWidget* parent = nullptr);
    ~TrainerPanel() override;

    TrainerOptionsForm* options() const { return options_; }
    QLineEdit* corpusEdit() const { return corpus_; }
    QLineEdit* cacheEdit() const { return cache_; }
    QLineEdit* outputEdit() const { return output_; }
    QPushButton* startButton() const { return start_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* openButton() const { return open_; }
    BackgroundTask* task() const { return task_; }
    /// Progress of Stage A (0) or Stage B (1), as the bars see it.
    QtProgress* stageProgress(int stage) const { return stage == 0 ? progressA_ : progressB_; }
    /// The state line under the progress bars ("Cancelled.", "Finished: …").
    QString statusText() const;
    /// Points of the loss curve shown (live steps while training, epochs after a run).
    int lossPoints() const;
    /// The loss chart (tests read its graphs and axes).
    QCustomPlot* lossChart() const { return curves_; }
    /// The ETA beside the progress bar of Stage A (0) or B (1); "" when none is shown.
    QString etaText(int stage) const;
    QProgressBar* stageBar(int stage) const { return stage == 0 ? barA_ : barB_; }

    /// Settings the encoder uses for video entries (from the main window's settings).
    void setPipelineSettings(const PipelineSettings& settings, const QString& modelDir);
    /// Cancels a running training and waits (closing the window).
    void shutdown();

    /// Draws a finished fit's per-epoch history (mean loss and selection criterion) from a
    /// codebook's metadata; false (chart unchanged) when the metadata records none. Used when a
    /// run finishes and when a codebook is opened while no training runs.
    bool showHistory(const TrainingHistory& history, const QString& source);
    bool showCodebookHistory(const std::map<std::string, std::string>& metadata,
                             const QString& source);

  public slots:
    /// Starts (or resumes, when the cache folder holds an earlier run) a training run.
    void start();
    void cancel();

  signals:
    /// The user asked to open the finished codebook in the main view.
    void openCodebookRequested(const QString& path);

  private:
    void onStageProgress(int stage, const ProgressUpdate& update);
    void updateButtons();
    /// Fills the cache and output fields from an existing corpus path (see the .cpp).
    void suggestPathsFromCorpus(bool typing);
    void resetCurves();
    /// Clears what describes an earlier run (bars, ETAs, state line, curves) when the corpus
    /// changes: those numbers are not about the new corpus (issue 16).
    void clearRunDisplay();
    /// After a cancel or a failure: no ETA, bars say where they stopped.
    void markStopped(const QString& why);
    QWidget* createPathRow(QLineEdit* edit, bool folder, bool save, const QString& filter);

    TrainerOptionsForm* options_;
    QComboBox* backbone_;
    QLineEdit* corpus_;
    QLineEdit* cache_;
    QLineEdit* output_;
    QPushButton* start_;
    QPushButton* cancel_;
    QPushButton* open_;
    QProgressBar* barA_;
    QProgressBar* barB_;
    QLabel* etaA_;
    QLabel* etaB_;
    QLabel* status_;
    QCustomPlot* curves_;
    BackgroundTask* task_;
    QtProgress* progressA_;
    QtProgress* progressB_;
    PipelineSettings pipeline_;
    QString modelDir_;
    QString finished_;
    QString finishedCache_;  ///< the Stage-A cache of the finished run
    QString suggestedCache_;   ///< what suggestPathsFromCorpus() last put in cache_
    QString suggestedOutput_;  ///< and in output_
    double step_ = 0;
};

}  // namespace once::studio
