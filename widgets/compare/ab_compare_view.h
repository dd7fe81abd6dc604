#pragma once
// The A/B view (issue 30, view 14): two compressions of the video on screen side by side on the
// same frame — two methods, or one method at two budgets — each with its groups, output tokens
// and compression times, and between them the difference overlay (which patches moved to
// another group or were dropped by one side; core/analysis/group_difference.h). The frame follows
// the main view's. Each side uses the compressors the session prepared for this video, and
// prepares (on the worker) what it lacks, handing it to the session so nothing is prepared twice.
// Compares on every change of a side while its dock is in front (the newest change wins:
// tasks/latest_request.h); the widget only draws. Under the sides, the same question answered
// under A's and B's settings (compare/ab_answers.h).
#include <QWidget>
#include <array>
#include <cstdint>
#include <memory>

#include "analysis/group_difference.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace once {
struct CompressionResult;
}

namespace once::studio {

class AbAnswers;
class BackgroundTask;
class DifferenceView;
class FrameOverlayView;
class GroupOverlay;
class LatestRequestRunner;
class StudioSession;

class AbCompareView : public QWidget {
    Q_OBJECT
  public:
    /// `frames`: the main view's overlay, whose frame this view follows.
    AbCompareView(StudioSession* session, GroupOverlay* frames, QWidget* parent = nullptr);
    ~AbCompareView() override;

    enum Side { A = 0, B = 1 };
    QComboBox* methodBox(Side s) const { return sides_[s].method; }
    QSpinBox* budgetBox(Side s) const { return sides_[s].budget; }
    GroupOverlay* overlay(Side s) const { return sides_[s].overlay; }
    FrameOverlayView* view(Side s) const { return sides_[s].view; }
    /// "M output tokens · compressed in … ms" of a side.
    QString statsText(Side s) const;
    std::shared_ptr<const once::CompressionResult> result(Side s) const { return sides_[s].result; }
    DifferenceView* differenceView() const { return difference_; }
    const once::GroupDifference& difference() const { return diff_; }
    QString differenceText() const;
    /// The comparison's worker.
    BackgroundTask* task() const;
    AbAnswers* answers() const { return answers_; }

    /// Sets a side (method registry name, budget) and compares.
    void setSide(Side s, const QString& method, std::int64_t budget);
    /// As the projector: compares only while wanted (the window passes its dock's visibility).
    void setActive(bool active);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    struct SideWidgets {
        QComboBox* method = nullptr;
        QSpinBox* budget = nullptr;
        GroupOverlay* overlay = nullptr;
        FrameOverlayView* view = nullptr;
        QLabel* stats = nullptr;
        std::shared_ptr<const once::CompressionResult> result;
    };
    QWidget* buildSide(Side s, const QString& title);
    /// The session's video (and its methods) on both sides; default settings from the session.
    void onVideo();
    /// Methods usable now (a codebook when needed), the budget range of the chosen one.
    void refreshChoices(Side s);
    /// A side's settings changed: its answer may be stale, the comparison is.
    void sideChanged(Side s);
    void compare();
    void clearResults(const QString& why);

    StudioSession* session_;
    GroupOverlay* frames_;
    std::array<SideWidgets, 2> sides_;
    DifferenceView* difference_;
    QLabel* differenceLabel_;
    LatestRequestRunner* runner_;
    AbAnswers* answers_;
    once::GroupDifference diff_;
    bool active_ = true;
    bool stale_ = true;
};

}  // namespace once::studio
