#pragma once
// What the overlay views draw, computed once per compression result: for every token its group
// (output row, or −1 when dropped), its cosine residual, and each group's codeword, size and
// colours. The views only read it; a change of result, mode, opacity or selection emits changed().
// Peer baselines have no codewords and no residuals: their groups are keyed (coloured, selected)
// by their first token instead, and the hover says so.
#include <QColor>
#include <QImage>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QVector>
#include <memory>
#include <vector>

namespace once {
struct Assignment;
struct CompressionResult;
}  // namespace once

namespace once::studio {

struct VideoData;

/// Everything the hover tooltip shows about one patch.
struct PatchInfo {
    bool valid = false;
    int frame = -1, patch = -1, row = -1, col = -1;
    bool dropped = false;        ///< no-reassign or a peer: the token is in no output group
    int rank = -1;               ///< output row = frequency rank of the group (0 = largest)
    std::int64_t codeword = -1;  ///< codeword id of the group (k̂ when dropped); −1: none
    std::int64_t groupSize = 0;
    float residual = 0;        ///< 1 − cos(x, c) of this token
    bool hasCodeword = false;  ///< false for methods without codewords (the peers)
    bool hasResidual = false;  ///< false for methods without a codebook
};

class GroupOverlay : public QObject {
    Q_OBJECT
  public:
    /// Group colour, the group's mean image colour, or the residual heat-map (each patch by its
    /// 1 − cos to the codeword it ends in, on residualScaleMax(); view 15).
    enum class ColourMode { GroupColour, GroupMean, Residual };

    explicit GroupOverlay(QObject* parent = nullptr);
    /// A parentless copy of everything drawn (video, result, opacity, mode, outlines, selection,
    /// current frame), for work on another thread while this one goes on changing. The
    /// pictures and the result are shared, not copied (implicitly shared / const).
    std::unique_ptr<GroupOverlay> snapshot() const;

    /// Frames, grid and patch colours of a video (frames may be empty: neutral background).
    void setVideo(const VideoData& video);
    /// The compression to show; null clears the overlay. The assignment (optional) names the
    /// nearest codeword of dropped tokens.
    void setResult(std::shared_ptr<const once::CompressionResult> result,
                   std::shared_ptr<const once::Assignment> assignment = nullptr);

    int frameCount() const { return frames_; }
    int gridH() const { return gridH_; }
    int gridW() const { return gridW_; }
    int patchesPerFrame() const { return gridH_ * gridW_; }
    bool hasResult() const { return !groupOfToken_.empty(); }
    /// Image of frame `t`, or a null image when the video has no frames.
    QImage frameImage(int t) const;
    double frameTime(int t) const;
    /// The sampled frame whose groups go with the video at `seconds`: the last one at or before
    /// it (1 ms of slack for rounded times), −1 before the first. The player follows its clock
    /// with it and the clip export draws each played frame with it: one mapping for both.
    int frameAtTime(double seconds) const;
    /// Width / height of a frame as drawn.
    double aspectRatio() const;

    /// What the frame view says when there is no result ("": its default, "open a codebook").
    void setEmptyText(const QString& text);
    QString emptyText() const { return emptyText_; }
    /// Whether the groups carry codeword ids (ONCE) or not (a peer baseline).
    bool hasCodewords() const { return hasCodewords_; }

    int groupOfToken(int token) const { return hasResult() ? groupOfToken_[token] : -1; }
    bool isDropped(int token) const { return hasResult() && groupOfToken_[token] < 0; }
    std::int64_t codewordOfGroup(int group) const { return codewordOfGroup_[group]; }
    /// What identifies a group across budgets: its codeword id, or for a method without
    /// codewords kFirstTokenKey + its first token.
    std::int64_t groupKey(int group) const { return keyOfGroup_[group]; }
    static constexpr std::int64_t kFirstTokenKey = std::int64_t{1} << 40;
    int groupCount() const { return static_cast<int>(codewordOfGroup_.size()); }
    int droppedCount() const { return dropped_; }
    /// Fill colour of a token's patch in the current mode (opaque; the view applies opacity).
    QColor fillColour(int token) const;
    /// A stable colour per codeword id (group key), so a group keeps its colour when the budget
    /// moves.
    static QColor codewordColour(std::int64_t codeword);

    PatchInfo patchInfo(int frame, int patch) const;
    /// Members of `group` in frame `t`.
    int membersInFrame(int group, int t) const;

    double opacity() const { return opacity_; }
    void setOpacity(double opacity);
    ColourMode colourMode() const { return mode_; }
    void setColourMode(ColourMode mode);
    /// Whether the result has residuals to draw (ONCE; not the peers): the heat-map needs them.
    bool hasResiduals() const { return !residual_.empty(); }
    /// Top of the heat-map's scale: the result's largest residual (the scale starts at 0, a
    /// token on its codeword). Per result, so the whole range of colours is used at any budget;
    /// the controls print it beside the colour bar.
    float residualScaleMax() const { return residualMax_; }
    /// Heat-map colour of `fraction` of the scale (0…1, clamped): viridis, which stays readable
    /// in grey and for colour-blind readers.
    static QColor residualColour(double fraction);

    /// The patch the inspector shows (frame-major token index; −1: none). Kept across results
    /// of the same video, cleared by another video.
    int inspectedToken() const { return inspected_; }
    void setInspectedToken(int token);
    bool showOutlines() const { return outlines_; }
    void setShowOutlines(bool show);

    /// The selected group, kept by its key (groupKey: the codeword id for ONCE) so it survives
    /// a budget change while that codeword is still selected; −1: none.
    std::int64_t selectedCodeword() const { return selectedCodeword_; }
    /// Output row of the selected group in the current result, −1 when absent.
    int selectedGroup() const;
    void setSelectedCodeword(std::int64_t key);
    /// Selects the group of the patch (or clears the selection when it is already selected or
    /// the token was dropped). A highlighted codeword gives way to the clicked group.
    void toggleSelectionAt(int frame, int patch);

    /// The codebook explorer's selection: highlights in every frame exactly the patches
    /// assigned to `codeword` (k̂ = codeword, step 1 of ONCE: the codeword's usage in this
    /// video), whatever the budget — also a codeword that is not among the budget's selected
    /// ones. −1 clears. Emits selectionChanged(codeword). Needs the assignment (ONCE): without
    /// one nothing is highlighted.
    void highlightCodeword(std::int64_t codeword);
    /// True while the selection is a highlighted codeword rather than an output group.
    bool highlightsCodeword() const { return highlight_ && selectedCodeword_ >= 0; }
    /// Whether anything is selected that can be drawn (a group of the result, or a highlighted
    /// codeword with an assignment).
    bool hasSelection() const;
    /// Whether the token belongs to the selection (the selected group, or the highlighted
    /// codeword's assigned patches).
    bool isSelectedToken(int token) const;
    /// Selected tokens in frame `t` (the strip's badge, the frame view's caption).
    int selectedMembersInFrame(int t) const;
    /// k̂ of a token (its nearest codeword), −1 without an assignment.
    std::int64_t nearestCodeword(int token) const;
    /// Whether k̂ of every token is known (the result came with its assignment).
    bool hasAssignment() const { return !nearestAll_.empty(); }

    int currentFrame() const { return currentFrame_; }
    void setCurrentFrame(int t);

  signals:
    void changed();
    void currentFrameChanged(int frame);
    void selectionChanged(std::int64_t codeword);
    void inspectedTokenChanged(int token);

  private:
    void rebuildGroupColours();

    int frames_ = 0, gridH_ = 0, gridW_ = 0;
    QVector<QImage> images_;
    std::vector<double> times_;
    QString path_;  ///< the video's file (a new one starts at its first frame)
    std::vector<QRgb> patchColours_;
    std::shared_ptr<const once::CompressionResult> result_;
    std::vector<int> groupOfToken_;
    std::vector<float> residual_;
    float residualMax_ = 0;
    int inspected_ = -1;
    std::vector<std::int64_t> codewordOfGroup_, sizeOfGroup_, keyOfGroup_;
    bool hasCodewords_ = false;
    QString emptyText_;
    std::vector<std::int64_t> nearestOfToken_;  // k̂ of dropped tokens, −1 otherwise
    std::vector<std::int32_t> nearestAll_;      // k̂ of every token (ONCE), empty otherwise
    bool highlight_ = false;                    // selection = a codeword's assigned patches
    std::vector<QColor> groupColour_, groupMean_;
    int dropped_ = 0;
    double opacity_ = 0.55;
    ColourMode mode_ = ColourMode::GroupColour;
    bool outlines_ = true;
    std::int64_t selectedCodeword_ = -1;
    int currentFrame_ = 0;
};

}  // namespace once::studio

Q_DECLARE_METATYPE(once::studio::PatchInfo)
