#pragma once
// The A/B view's answers (issue 30, view 14): one question asked under side A's settings and
// under side B's (method, budget), one after the other on a worker with progress and Cancel, and
// under each side its answer, its output token count and the latency of each pipeline stage as
// the question panel shows them. Asked the question panel's way (session/answer_target.h): on
// this machine through the session's answer pipeline — its model, the video on screen, the
// codebook and the compressors already prepared — or on the connected server, so a side's answer
// is the question panel's for that method and budget. An answer stays only while its side's
// settings are those it was asked with; a new video or codebook clears both.
#include <QWidget>
#include <array>
#include <cstdint>
#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace once {
struct AskReport;
}

namespace once::studio {

class BackgroundTask;
class StudioSession;

class AbAnswers : public QWidget {
    Q_OBJECT
  public:
    explicit AbAnswers(StudioSession* session, QWidget* parent = nullptr);
    ~AbAnswers() override;

    /// A side's settings now (the A/B view calls this whenever a side changes).
    void setSide(int side, const QString& method, std::int64_t budget);
    /// Fills the question field unless the user typed one here (the question panel's question).
    void offerQuestion(const QString& question);
    /// Asks the question under both sides' settings; false when it cannot be asked now.
    bool askBoth();

    QLineEdit* questionEdit() const { return question_; }
    QSpinBox* maxTokensBox() const { return maxTokens_; }
    QPushButton* askButton() const { return ask_; }
    QPushButton* cancelButton() const { return cancel_; }
    BackgroundTask* task() const { return task_; }
    /// A side's answer on screen (null: none), its answer text and its statistics line.
    std::shared_ptr<const once::AskReport> report(int side) const { return sides_[side].report; }
    QString answerText(int side) const;
    QString latencyText(int side) const;

  private:
    struct Settings {
        QString method;
        std::int64_t budget = 0;
        bool operator==(const Settings&) const = default;
    };
    struct SideWidgets {
        QLabel* answer = nullptr;
        QLabel* latency = nullptr;
        Settings now, asked;
        std::shared_ptr<const once::AskReport> report;
    };
    /// The button's state and why it is off (what to load).
    void refreshAvailability();
    void clearSide(int side, const QString& why = {});
    void showSide(int side, const std::shared_ptr<const once::AskReport>& report,
                  const QString& error);

    StudioSession* session_;
    QLineEdit* question_;
    QSpinBox* maxTokens_;
    QPushButton* ask_;
    QPushButton* cancel_;
    QLabel* where_;
    BackgroundTask* task_;
    std::array<SideWidgets, 2> sides_;
};

}  // namespace once::studio
