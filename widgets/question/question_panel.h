#pragma once
// Ask a question about the open video with a loaded model: the answer streams in, Dense (all
// tokens) and the method of the budget panel (ONCE or a peer, at the budget of the slider) side
// by side, with per-stage times and token counts. The panel draws; the question is asked by its
// QuestionController (session/question_controller.h). Without a model folder (the demo encoder
// has no LLM) the panel says so plainly and the rest of the studio keeps working.
#include <QString>
#include <QWidget>

#include "session/question_controller.h"

namespace once {
struct AskReport;
}

class QCheckBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTextBrowser;
class QToolButton;

namespace once::studio {

class BackgroundTask;
class StudioSession;
struct CsvTable;

class QuestionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit QuestionPanel(StudioSession* session, QWidget* parent = nullptr);
    ~QuestionPanel() override;

    /// Whether answering is possible now (a model folder and a video are loaded).
    bool canAnswer() const;
    /// The sentence shown instead of answers when canAnswer() is false.
    QString unavailableReason() const;
    QLineEdit* questionEdit() const { return question_; }
    QSpinBox* maxTokensBox() const { return maxTokens_; }
    QPushButton* askButton() const { return ask_; }
    QString denseAnswer() const;
    QString onceAnswer() const;
    /// The question of the answers shown ("" when none).
    QString askedQuestion() const { return askedQuestion_; }
    /// Shows a question and its two answers kept from an earlier run (a session file, the
    /// autosave after a crash); the statistics are not kept, so the table stays empty.
    void restoreAnswers(const QString& question, const QString& dense, const QString& compressed);
    /// A cell of the statistics table: `row` as labelled, column 0 Dense, 1 ONCE.
    QString statistic(const QString& row, int column) const;
    /// The statistics table (its rows are labelled in the vertical header, with tooltips).
    QTableWidget* statisticsTable() const { return stats_; }
    /// The question and both answers as plain text, for the clipboard and "Save Answers…".
    QString answersText() const;
    /// The statistics as a table (header "statistic", Dense, the method) for CSV export.
    CsvTable statisticsCsv() const;
    bool saveAnswers(const QString& path, QString* error = nullptr) const;
    bool exportStatistics(const QString& path, QString* error = nullptr) const;
    QToolButton* copyAnswersButton() const { return copyAnswers_; }
    QToolButton* copyTableButton() const { return copyTable_; }
    /// Shows finished reports as a question does (tests drive the table without a model).
    void showAnswerReports(const once::AskReport* dense, const once::AskReport* compressed,
                           const QString& methodTitle);
    BackgroundTask* task() const;
    QuestionController* controller() const { return controller_; }
    /// Why the last question could not be answered (the whole question, or only its
    /// compressed column); "" when it was answered or nothing was asked since the inputs changed.
    QString problem() const;
    /// Which machine measured the times of the answers shown: "this machine" or
    /// "HOST:PORT (remote)", in a sentence ("" before the first answer).
    QString measuredOn() const;
    /// The buttons offered with a codebook/model backbone mismatch.
    QPushButton* openCodebookButton() const { return openCodebook_; }
    QPushButton* reencodeButton() const { return reencode_; }
    /// Cancels a running question and waits (closing the window).
    void shutdown();

  public slots:
    void askQuestion();

  signals:
    /// A question, or its compressed column, failed; the main window logs it in its status bar.
    void problemOccurred(const QString& message);
    /// "Open a matching codebook" was pressed (the main window owns the file dialog).
    void openCodebookRequested();

  private:
    void refreshAvailability();
    void onAsked(const QuestionController::Plan& plan);
    void onAnswered(const QuestionController::Outcome& outcome);
    void showReports(const once::AskReport* dense, const once::AskReport* compressed,
                     const QString& title);
    /// Fills the statistics table and sizes it so every row shows without its own scrolling.
    void fillStatistics(const once::AskReport* dense, const once::AskReport* compressed);
    void updateExportButtons();
    void appendText(int column, const QString& piece);
    /// Shows `message` in the problem bar (kept until the inputs change or the next question);
    /// with `backboneMismatch` it offers the fixes.
    void showProblem(const QString& message, bool backboneMismatch);
    void clearProblem();

    StudioSession* session_;
    QuestionController* controller_;
    BackgroundTask* task_;  ///< the controller's
    QLabel* note_;
    QLabel* measuredOn_;
    QFrame* problemBar_;
    QLabel* problem_;
    QPushButton* openCodebook_;
    QPushButton* reencode_;
    QLineEdit* question_;
    QPushButton* ask_;
    QPushButton* stop_;
    QCheckBox* compare_;
    QSpinBox* maxTokens_;
    QTextBrowser* dense_;
    QTextBrowser* once_;
    QLabel* denseTitle_;
    QLabel* onceTitle_;
    QTableWidget* stats_;
    QToolButton* copyAnswers_;
    QToolButton* saveAnswers_;
    QToolButton* copyTable_;
    QToolButton* exportTable_;
    QString askedQuestion_;  ///< the question of the answers shown
    QString machine_;        ///< the server that answered the question shown; "" this machine
    bool compressedFailed_ = false;  ///< the compressed column shows an error, not an answer
};

}  // namespace once::studio
