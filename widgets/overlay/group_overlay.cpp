#include "overlay/group_overlay.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

#include "compress/assignment.h"
#include "compress/compression.h"
#include "session/video_data.h"

namespace once::studio {

GroupOverlay::GroupOverlay(QObject* parent) : QObject(parent) {}

std::unique_ptr<GroupOverlay> GroupOverlay::snapshot() const {
    // Every data member (a QObject has no copy constructor to do it).
    auto c = std::make_unique<GroupOverlay>();
    c->frames_ = frames_;
    c->gridH_ = gridH_;
    c->gridW_ = gridW_;
    c->images_ = images_;
    c->times_ = times_;
    c->path_ = path_;
    c->patchColours_ = patchColours_;
    c->result_ = result_;
    c->groupOfToken_ = groupOfToken_;
    c->residual_ = residual_;
    c->codewordOfGroup_ = codewordOfGroup_;
    c->sizeOfGroup_ = sizeOfGroup_;
    c->keyOfGroup_ = keyOfGroup_;
    c->hasCodewords_ = hasCodewords_;
    c->emptyText_ = emptyText_;
    c->nearestOfToken_ = nearestOfToken_;
    c->nearestAll_ = nearestAll_;
    c->highlight_ = highlight_;
    c->groupColour_ = groupColour_;
    c->groupMean_ = groupMean_;
    c->dropped_ = dropped_;
    c->opacity_ = opacity_;
    c->mode_ = mode_;
    c->outlines_ = outlines_;
    c->selectedCodeword_ = selectedCodeword_;
    c->currentFrame_ = currentFrame_;
    return c;
}

void GroupOverlay::setVideo(const VideoData& video) {
    frames_ = static_cast<int>(video.numFrames());
    gridH_ = video.gridH;
    gridW_ = video.gridW;
    images_ = video.frames;
    times_ = video.frameTimes;
    patchColours_ = video.patchColours;
    // The same video again (re-encoded, other sampling) keeps its frame; another one starts at
    // its first (issue 30: the frame index carried over to the next video).
    if (video.path != path_) {
        currentFrame_ = 0;
        setInspectedToken(-1);
    }
    path_ = video.path;
    currentFrame_ = std::clamp(currentFrame_, 0, std::max(0, frames_ - 1));
    setResult(nullptr);
    emit currentFrameChanged(currentFrame_);
}

void GroupOverlay::setResult(std::shared_ptr<const once::CompressionResult> result,
                             std::shared_ptr<const once::Assignment> assignment) {
    result_ = std::move(result);
    groupOfToken_.clear();
    residual_.clear();
    codewordOfGroup_.clear();
    sizeOfGroup_.clear();
    keyOfGroup_.clear();
    nearestOfToken_.clear();
    nearestAll_.clear();
    hasCodewords_ = false;
    dropped_ = 0;
    const std::int64_t n = static_cast<std::int64_t>(frames_) * patchesPerFrame();
    if (result_ && result_->groupOfToken.defined() && result_->groupOfToken.numel() == n) {
        const at::Tensor g = result_->groupOfToken.to(at::kInt).contiguous();
        groupOfToken_.assign(g.data_ptr<int>(), g.data_ptr<int>() + n);
        if (result_->residual.defined() && result_->residual.numel() == n) {
            const at::Tensor r = result_->residual.to(at::kFloat).contiguous();
            residual_.assign(r.data_ptr<float>(), r.data_ptr<float>() + r.numel());
        }
        const at::Tensor sizes = result_->groupSizes.to(at::kLong).contiguous();
        sizeOfGroup_.assign(sizes.data_ptr<std::int64_t>(),
                            sizes.data_ptr<std::int64_t>() + sizes.numel());
        const std::size_t m = sizeOfGroup_.size();
        if (result_->codewordIds.defined() && result_->codewordIds.numel() == std::int64_t(m)) {
            const at::Tensor ids = result_->codewordIds.to(at::kLong).contiguous();
            codewordOfGroup_.assign(ids.data_ptr<std::int64_t>(),
                                    ids.data_ptr<std::int64_t>() + ids.numel());
        } else {
            codewordOfGroup_.assign(m, -1);
        }
        hasCodewords_ = std::any_of(codewordOfGroup_.begin(), codewordOfGroup_.end(),
                                    [](std::int64_t id) { return id >= 0; });
        keyOfGroup_ = codewordOfGroup_;
        if (!hasCodewords_) {
            // No codewords: a group is known by its first token (stable while that token
            // starts a group at the next budget too).
            std::fill(keyOfGroup_.begin(), keyOfGroup_.end(), -1);
            for (std::int64_t i = 0; i < n; ++i) {
                const int g = groupOfToken_[i];
                if (g >= 0 && g < static_cast<int>(m) && keyOfGroup_[g] < 0) {
                    keyOfGroup_[g] = kFirstTokenKey + i;
                }
            }
        }
        for (int v : groupOfToken_) {
            dropped_ += v < 0 ? 1 : 0;
        }
        if (assignment && assignment->topIds.defined() && assignment->topIds.dim() == 2 &&
            assignment->topIds.size(0) == n) {
            const at::Tensor top = assignment->topIds.select(1, 0).to(at::kInt).contiguous();
            nearestAll_.assign(top.data_ptr<std::int32_t>(), top.data_ptr<std::int32_t>() + n);
            if (dropped_ > 0) {
                nearestOfToken_.assign(nearestAll_.begin(), nearestAll_.end());
            }
        }
    }
    residualMax_ = 0;
    for (float r : residual_) {
        residualMax_ = std::isfinite(r) ? std::max(residualMax_, r) : residualMax_;
    }
    if (inspected_ >= static_cast<int>(n)) {
        setInspectedToken(-1);  // another grid under the same path (re-encoded)
    }
    rebuildGroupColours();
    emit changed();
}

void GroupOverlay::rebuildGroupColours() {
    const int m = groupCount();
    groupColour_.resize(m);
    for (int g = 0; g < m; ++g) {
        groupColour_[g] = codewordColour(keyOfGroup_[g]);
    }
    groupMean_ = groupColour_;
    if (patchColours_.size() != groupOfToken_.size() || m == 0) {
        return;  // no frames: the mean colour mode falls back to group colours
    }
    std::vector<double> sum(3 * static_cast<std::size_t>(m), 0.0);
    std::vector<std::int64_t> count(m, 0);
    for (std::size_t i = 0; i < groupOfToken_.size(); ++i) {
        const int g = groupOfToken_[i];
        if (g < 0) {
            continue;
        }
        const QRgb c = patchColours_[i];
        sum[3 * g] += qRed(c);
        sum[3 * g + 1] += qGreen(c);
        sum[3 * g + 2] += qBlue(c);
        ++count[g];
    }
    for (int g = 0; g < m; ++g) {
        if (count[g] > 0) {
            const double k = 1.0 / static_cast<double>(count[g]);
            groupMean_[g] = QColor(static_cast<int>(sum[3 * g] * k + 0.5),
                                   static_cast<int>(sum[3 * g + 1] * k + 0.5),
                                   static_cast<int>(sum[3 * g + 2] * k + 0.5));
        }
    }
}

QColor GroupOverlay::codewordColour(std::int64_t codeword) {
    // Golden-ratio hue steps keep neighbouring ids far apart on the colour wheel; two
    // saturation/value levels double the number of tellable-apart colours.
    const double hue = std::fmod(0.11 + static_cast<double>(codeword) * 0.6180339887498949, 1.0);
    const bool alt = (codeword / 7) % 2 == 1;
    return QColor::fromHsvF(static_cast<float>(hue), alt ? 0.55f : 0.85f, alt ? 1.0f : 0.9f);
}

QImage GroupOverlay::frameImage(int t) const {
    return t >= 0 && t < images_.size() ? images_[t] : QImage();
}

double GroupOverlay::frameTime(int t) const {
    return t >= 0 && t < static_cast<int>(times_.size()) ? times_[t] : static_cast<double>(t);
}

int GroupOverlay::frameAtTime(double seconds) const {
    int frame = -1;
    for (int i = 0; i < frames_; ++i) {
        if (frameTime(i) <= seconds + 1e-3) {
            frame = i;
        }
    }
    return frame;
}

double GroupOverlay::aspectRatio() const {
    if (!images_.isEmpty() && !images_.front().isNull()) {
        return static_cast<double>(images_.front().width()) / images_.front().height();
    }
    return gridH_ > 0 ? static_cast<double>(gridW_) / gridH_ : 1.0;
}

QColor GroupOverlay::residualColour(double fraction) {
    // Five samples of matplotlib's viridis, linearly interpolated.
    static constexpr int kStops[5][3] = {
        {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
    const double x = f * 4;
    const int i = std::min(3, static_cast<int>(x));
    const double u = x - i;
    auto mix = [&](int ch) {
        return static_cast<int>(kStops[i][ch] + (kStops[i + 1][ch] - kStops[i][ch]) * u + 0.5);
    };
    return QColor(mix(0), mix(1), mix(2));
}

void GroupOverlay::setInspectedToken(int token) {
    token = token >= 0 && token < frames_ * patchesPerFrame() ? token : -1;
    if (token != inspected_) {
        inspected_ = token;
        emit inspectedTokenChanged(token);
        emit changed();
    }
}

QColor GroupOverlay::fillColour(int token) const {
    if (mode_ == ColourMode::Residual && token >= 0 && token < static_cast<int>(residual_.size())) {
        // Dropped tokens too: their residual is to k̂, and the hatching still marks them.
        return residualColour(residualMax_ > 0 ? residual_[token] / residualMax_ : 0.0);
    }
    const int g = groupOfToken(token);
    if (g < 0) {
        return QColor(60, 60, 60);
    }
    return mode_ == ColourMode::GroupMean ? groupMean_[g] : groupColour_[g];
}

PatchInfo GroupOverlay::patchInfo(int frame, int patch) const {
    PatchInfo info;
    if (frame < 0 || frame >= frames_ || patch < 0 || patch >= patchesPerFrame() || !hasResult()) {
        return info;
    }
    const int token = frame * patchesPerFrame() + patch;
    info.valid = true;
    info.frame = frame;
    info.patch = patch;
    info.row = patch / gridW_;
    info.col = patch % gridW_;
    info.hasResidual = token < static_cast<int>(residual_.size());
    info.residual = info.hasResidual ? residual_[token] : 0.f;
    const int g = groupOfToken_[token];
    info.dropped = g < 0;
    if (g >= 0) {
        info.rank = g;
        info.codeword = codewordOfGroup_[g];
        info.groupSize = sizeOfGroup_[g];
    } else if (!nearestOfToken_.empty()) {
        info.codeword = nearestOfToken_[token];
    }
    info.hasCodeword = info.codeword >= 0;
    return info;
}

int GroupOverlay::membersInFrame(int group, int t) const {
    if (group < 0 || t < 0 || t >= frames_ || !hasResult()) {
        return 0;
    }
    const int p = patchesPerFrame();
    return static_cast<int>(
        std::count(groupOfToken_.begin() + t * p, groupOfToken_.begin() + (t + 1) * p, group));
}

void GroupOverlay::setOpacity(double opacity) {
    opacity = std::clamp(opacity, 0.0, 1.0);
    if (opacity != opacity_) {
        opacity_ = opacity;
        emit changed();
    }
}

void GroupOverlay::setColourMode(ColourMode mode) {
    if (mode != mode_) {
        mode_ = mode;
        emit changed();
    }
}

void GroupOverlay::setShowOutlines(bool show) {
    if (show != outlines_) {
        outlines_ = show;
        emit changed();
    }
}

int GroupOverlay::selectedGroup() const {
    if (selectedCodeword_ < 0) {
        return -1;
    }
    const auto it = std::find(keyOfGroup_.begin(), keyOfGroup_.end(), selectedCodeword_);
    return it == keyOfGroup_.end() ? -1 : static_cast<int>(it - keyOfGroup_.begin());
}

void GroupOverlay::setSelectedCodeword(std::int64_t key) {
    const bool wasHighlight = highlight_;
    highlight_ = false;
    if (key != selectedCodeword_) {
        selectedCodeword_ = key;
        emit selectionChanged(key);
        emit changed();
    } else if (wasHighlight) {
        emit changed();  // the same codeword, now as its output group
    }
}

void GroupOverlay::highlightCodeword(std::int64_t codeword) {
    codeword = std::max<std::int64_t>(codeword, -1);
    const bool wasHighlight = highlight_;
    highlight_ = codeword >= 0;
    if (codeword != selectedCodeword_) {
        selectedCodeword_ = codeword;
        emit selectionChanged(codeword);
        emit changed();
    } else if (wasHighlight != highlight_) {
        emit changed();
    }
}

bool GroupOverlay::hasSelection() const {
    if (selectedCodeword_ < 0 || !hasResult()) {
        return false;
    }
    return highlight_ ? hasAssignment() : selectedGroup() >= 0;
}

bool GroupOverlay::isSelectedToken(int token) const {
    if (token < 0 || token >= static_cast<int>(groupOfToken_.size()) || selectedCodeword_ < 0) {
        return false;
    }
    if (highlight_) {
        return token < static_cast<int>(nearestAll_.size()) &&
               nearestAll_[token] == selectedCodeword_;
    }
    const int g = selectedGroup();
    return g >= 0 && groupOfToken_[token] == g;
}

int GroupOverlay::selectedMembersInFrame(int t) const {
    if (!hasSelection() || t < 0 || t >= frames_) {
        return 0;
    }
    if (!highlight_) {
        return membersInFrame(selectedGroup(), t);
    }
    const int p = patchesPerFrame();
    return static_cast<int>(std::count(nearestAll_.begin() + t * p,
                                       nearestAll_.begin() + (t + 1) * p,
                                       static_cast<std::int32_t>(selectedCodeword_)));
}

std::int64_t GroupOverlay::nearestCodeword(int token) const {
    return token >= 0 && token < static_cast<int>(nearestAll_.size()) ? nearestAll_[token] : -1;
}

void GroupOverlay::setEmptyText(const QString& text) {
    if (text != emptyText_) {
        emptyText_ = text;
        emit changed();
    }
}

void GroupOverlay::toggleSelectionAt(int frame, int patch) {
    const PatchInfo info = patchInfo(frame, patch);
    const std::int64_t key = info.valid && !info.dropped ? keyOfGroup_[info.rank] : -1;
    if (key < 0 || (key == selectedCodeword_ && !highlight_)) {
        setSelectedCodeword(-1);
    } else {
        setSelectedCodeword(key);
    }
}

void GroupOverlay::setCurrentFrame(int t) {
    t = std::clamp(t, 0, std::max(0, frames_ - 1));
    if (t != currentFrame_) {
        currentFrame_ = t;
        emit currentFrameChanged(t);
    }
}

}  // namespace once::studio
