#pragma once
// Small synthetic inputs for the studio's widget tests: a "video" whose frames are coloured
// blocks and whose features come from those colours (so groups follow the picture), and a
// codebook sampled from its feature rows. Header-only; shared with tests/app_studio.
#include <ATen/ATen.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <memory>

#include "codebook/codebook.h"
#include "session/studio_session.h"
#include "session/video_data.h"
#include "tasks/background_task.h"

namespace once::studio::test {

/// T frames of gridH×gridW patches (8×8 pixels each), D-dim features: the patch's colour block
/// id one-hot-ish plus noise, so tokens of one colour land near one codeword.
inline VideoData syntheticVideo(int frames = 4, int gridH = 6, int gridW = 6, int dim = 16,
                                std::uint64_t seed = 7) {
    at::manual_seed(static_cast<std::int64_t>(seed));
    const int px = 8;
    at::Tensor rgb = at::zeros({frames, gridH * px, gridW * px, 3}, at::kByte);
    at::Tensor features = at::zeros({frames, gridH * gridW, dim});
    const int colours = 5;
    const at::Tensor palette = at::randint(40, 230, {colours, 3}, at::kLong).to(at::kByte);
    const at::Tensor directions = at::randn({colours, dim});
    for (int t = 0; t < frames; ++t) {
        for (int r = 0; r < gridH; ++r) {
            for (int c = 0; c < gridW; ++c) {
                // Blocks that drift one column per frame: groups move across the frames.
                const int k = ((c + t) / 2 + r / 2) % colours;
                rgb[t].slice(0, r * px, (r + 1) * px).slice(1, c * px, (c + 1) * px) = palette[k];
                features[t][r * gridW + c] = directions[k] + 0.15 * at::randn({dim});
            }
        }
    }
    VideoData v;
    v.path = QStringLiteral("synthetic.mp4");
    v.features = features;
    v.gridH = gridH;
    v.gridW = gridW;
    v.backbone = "demo";
    for (int t = 0; t < frames; ++t) {
        v.frameTimes.push_back(0.5 * t);
    }
    attachFrames(v, rgb);
    return v;
}

/// K rows of the video's features (every n-th token), as a codebook.
inline std::shared_ptr<const once::Codebook> codebookFrom(const VideoData& v, std::int64_t k) {
    const at::Tensor flat = v.features.reshape({-1, v.dim()});
    const at::Tensor rows = at::linspace(0, flat.size(0) - 1, k).round().to(at::kLong);
    return std::make_shared<const once::Codebook>(
        once::Codebook::fromTensor(flat.index_select(0, rows).contiguous(), "demo"));
}

/// Waits until a view's worker is idle — also when a request that came while it ran started
/// once it ended (tasks/latest_request.h: the inspector, the projector, the A/B view).
/// The settings of the tiny LLaVA-OneVision model folder the tests build
/// (tests/reference/llava_ov_model_folder.py): its backbone, `frames` uniform frames, pool
/// stride 2, float32 (the Python reference's precision).
inline void useTinyLlavaSettings(StudioSession& session, int frames) {
    PipelineSettings s = session.pipelineSettings();
    s.backbone = QStringLiteral("llava-onevision");
    s.sampling = QStringLiteral("uniform:%1").arg(frames);
    s.poolStride = 2;
    s.dtype = QStringLiteral("float32");
    session.setPipelineSettings(s);
}

inline bool waitTaskIdle(BackgroundTask* task, int timeoutMs = 120000) {
    for (int i = 0; i < 50; ++i) {
        QTest::qWait(20);
        if (!task->isRunning()) {
            return true;
        }
        if (!task->wait(timeoutMs)) {
            return false;
        }
    }
    return false;
}

/// Processes events until the session has no work left (and has a result when `needResult`).
inline bool waitIdle(StudioSession& session, int timeoutMs = 120000, bool needResult = true) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!session.isBusy() && (!needResult || session.result())) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}

/// Waits until the session is idle with a result of `method` at `budget`.
inline bool waitForResult(StudioSession& session, const QString& method, std::int64_t budget,
                          int timeoutMs = 300000) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const auto r = session.result();
        if (!session.isBusy() && r && QString::fromStdString(r->method) == method &&
            r->budget == budget) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
}

}  // namespace once::studio::test
