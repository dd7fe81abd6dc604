#include "projector/codebook_projector.h"

#include <ATen/ATen.h>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QVBoxLayout>

#include "analysis/codebook_projection.h"
#include "codebook/codebook.h"
#include "codebook/codeword_ranking.h"
#include "compress/compression.h"
#include "overlay/group_overlay.h"
#include "projector/projection_chart.h"
#include "session/studio_session.h"
#include "tasks/background_task.h"
#include "tasks/latest_request.h"

namespace once::studio {
namespace {

std::vector<QPointF> points(const at::Tensor& xy) {
    std::vector<QPointF> out;
    if (!xy.defined()) {
        return out;
    }
    const at::Tensor c = xy.to(at::kDouble).contiguous();
    const double* p = c.data_ptr<double>();
    out.reserve(static_cast<std::size_t>(c.size(0)));
    for (std::int64_t i = 0; i < c.size(0); ++i) {
        out.emplace_back(p[2 * i], p[2 * i + 1]);
    }
    return out;
}

}  // namespace

CodebookProjector::CodebookProjector(StudioSession* session, GroupOverlay* overlay, QWidget* parent)
    : QWidget(parent),
      session_(session),
      overlay_(overlay),
      chart_(new ProjectionChart(this)),
      mapRunner_(new LatestRequestRunner(this)),
      similarRunner_(new LatestRequestRunner(this)) {
    codeword_ = new QSpinBox(this);
    codeword_->setRange(-1, 0);
    codeword_->setSpecialValueText(tr("none"));
    codeword_->setAccessibleName(tr("Codeword to find"));
    auto* find = new QLabel(tr("&Find codeword:"), this);
    find->setBuddy(codeword_);
    tokens_ = new QCheckBox(tr("Show this video's &tokens"), this);
    tokens_->setChecked(true);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    similar_ = new QListWidget(this);
    similar_->setMaximumHeight(140);
    similar_->setToolTip(
        tr("The codewords of highest cosine to the chosen one; double-click to "
           "choose one."));

    auto* row = new QHBoxLayout;
    row->addWidget(find);
    row->addWidget(codeword_);
    row->addWidget(tokens_);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(status_);
    layout->addWidget(chart_, 1);
    layout->addWidget(new QLabel(tr("Most similar codewords:"), this));
    layout->addWidget(similar_);

    connect(session_, &StudioSession::codebookChanged, this, [this] {
        mapStale_ = true;
        refreshMap();
    });
    connect(session_, &StudioSession::videoChanged, this, [this] {
        mapStale_ = true;
        refreshMap();
    });
    connect(session_, &StudioSession::assignmentChanged, this, [this] {
        mapStale_ = true;  // k̂ of the tokens
        refreshMap();
    });
    connect(session_, &StudioSession::resultChanged, this, &CodebookProjector::refreshSelected);
    connect(overlay_, &GroupOverlay::selectionChanged, this, &CodebookProjector::followOverlay);
    connect(overlay_, &GroupOverlay::inspectedTokenChanged, chart_,
            &ProjectionChart::setInspectedToken);
    connect(chart_, &ProjectionChart::codewordClicked, this, &CodebookProjector::choose);
    connect(codeword_, &QSpinBox::editingFinished, this, [this] { choose(codeword_->value()); });
    connect(tokens_, &QCheckBox::toggled, chart_, &ProjectionChart::setTokensShown);
    connect(similar_, &QListWidget::itemDoubleClicked, this,
            [this](QListWidgetItem* item) { choose(item->data(Qt::UserRole).toLongLong()); });
    connect(mapRunner_, &LatestRequestRunner::failed, this, [this](const QString& message) {
        chart_->setMap({}, message);
        status_->setText(message);
    });
    refreshMap();
}

CodebookProjector::~CodebookProjector() = default;  // the runners cancel and wait

BackgroundTask* CodebookProjector::mapTask() const {
    return mapRunner_->task();
}

BackgroundTask* CodebookProjector::similarTask() const {
    return similarRunner_->task();
}

void CodebookProjector::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refreshMap();  // work skipped while hidden
}

void CodebookProjector::setActive(bool active) {
    active_ = active;
    refreshMap();
}

void CodebookProjector::refreshMap() {
    const auto codebook = session_->codebook();
    if (!codebook) {
        mapRunner_->cancel();  // a map of the previous codebook must not come back
        projection_.reset();
        fittedOn_.reset();
        chart_->setMap({}, tr("Open a codebook to see its map."));
        status_->setText(tr("No codebook."));
        codeword_->setRange(-1, -1);
        return;
    }
    if (!mapStale_ || !active_ || !isVisible()) {
        return;
    }
    mapStale_ = false;
    const auto fitted = codebook == fittedOn_ ? projection_ : nullptr;
    const at::Tensor features = session_->video().features;
    const auto assignment = session_->assignment();
    mapRunner_->run(
        tr("Projecting the codebook"),
        [=, this](once::Progress& progress) -> BackgroundTask::Deliver {
            auto projection = fitted ? fitted
                                     : std::make_shared<const once::CodebookProjection>(
                                           once::fitCodebookProjection(*codebook, &progress));
            ProjectionChart::Map map;
            map.codewords = points(projection->codewords);
            map.explained[0] = projection->explained[0];
            map.explained[1] = projection->explained[1];
            if (features.defined() && features.size(-1) == codebook->dim()) {
                map.tokens = points(projection->project(features.to(at::kCPU)));
                if (assignment && assignment->topIds.defined() &&
                    assignment->topIds.size(0) == static_cast<std::int64_t>(map.tokens.size())) {
                    const at::Tensor top =
                        assignment->topIds.select(1, 0).to(at::kLong).contiguous();
                    map.nearestOf.assign(top.data_ptr<std::int64_t>(),
                                         top.data_ptr<std::int64_t>() + top.numel());
                }
            }
            return [this, codebook, projection, map = std::move(map)]() mutable {
                projection_ = projection;
                fittedOn_ = codebook;
                const auto k = static_cast<int>(map.codewords.size());
                status_->setText(
                    tr("%1 codewords, %2 tokens of this video; the two axes hold %3 % of the "
                       "codewords' variance.")
                        .arg(k)
                        .arg(map.tokens.size())
                        .arg((map.explained[0] + map.explained[1]) * 100, 0, 'f', 1));
                chart_->setMap(std::move(map));
                chart_->setInspectedToken(overlay_->inspectedToken());
                codeword_->setRange(-1, k - 1);
                refreshSelected();
                if (chosen_ >= k) {
                    choose(-1);
                } else {
                    findSimilar();
                }
            };
        });
}

void CodebookProjector::refreshSelected() {
    std::vector<std::int64_t> ids;
    const auto result = session_->result();
    if (result && result->codewordIds.defined()) {
        const at::Tensor c = result->codewordIds.to(at::kLong).contiguous();
        for (std::int64_t i = 0; i < c.numel(); ++i) {
            if (c.data_ptr<std::int64_t>()[i] >= 0) {
                ids.push_back(c.data_ptr<std::int64_t>()[i]);
            }
        }
    }
    chart_->setSelectedCodewords(std::move(ids));
}

void CodebookProjector::followOverlay(std::int64_t codeword) {
    // Peers' groups are keyed by a token, not a codeword: nothing to choose on the map.
    const std::int64_t k = codeword >= GroupOverlay::kFirstTokenKey ? -1 : codeword;
    if (k != chosen_) {
        chosen_ = k;
        codeword_->setValue(static_cast<int>(k));
        findSimilar();
    }
}

void CodebookProjector::choose(std::int64_t codeword) {
    const auto k = static_cast<std::int64_t>(chart_->map().codewords.size());
    codeword = codeword >= 0 && codeword < k ? codeword : -1;
    followOverlay(codeword);
    overlay_->highlightCodeword(codeword);
}

void CodebookProjector::findSimilar() {
    const auto codebook = fittedOn_;
    const std::int64_t k = chosen_;
    if (k < 0 || !codebook || k >= codebook->size()) {
        similarRunner_->cancel();
        similar_->clear();
        chart_->setChosen(-1, {});
        return;
    }
    similarRunner_->run(
        tr("Finding similar codewords"), [=, this](once::Progress&) -> BackgroundTask::Deliver {
            const once::CodewordRanking ranking(*codebook, codebook->vectors()[k]);
            auto nearest = ranking.nearest(kSimilar, k);
            return [this, k, nearest = std::move(nearest)] {
                similar_->clear();
                std::vector<std::int64_t> ids;
                for (const once::NearestCodeword& c : nearest) {
                    auto* item =
                        new QListWidgetItem(tr("codeword %1 · cosine %2")
                                                .arg(c.id)
                                                .arg(static_cast<double>(c.cosine), 0, 'f', 4),
                                            similar_);
                    item->setData(Qt::UserRole, QVariant::fromValue<qlonglong>(c.id));
                    ids.push_back(c.id);
                }
                chart_->setChosen(k, std::move(ids));
            };
        });
}

}  // namespace once::studio
