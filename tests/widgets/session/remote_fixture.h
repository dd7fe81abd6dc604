#pragma once
// What the studio's client-mode suites share: the session opened on the serve suites' tiny
// LLaVA-OneVision (serve/serve_process.h) with the server's token grid (sampling uniform:4, pool
// stride 2), so that a server's kept groups fit the overlay.
#include <cstdint>

#include "../studio_test_data.h"
#include "serve/serve_process.h"
#include "session/studio_session.h"

namespace once::studio::test {

/// The studio's video, codebook and model folder of `m`, at `budget`.
inline void openRemoteInputs(StudioSession& session, const once::test::TinyServeModel& m,
                             std::int64_t budget) {
    useTinyLlavaSettings(session, 4);
    session.openModelFolder(QString::fromStdString(m.model));
    session.openVideo(QString::fromStdString(m.clip));
    session.openCodebook(QString::fromStdString(m.codebook));
    session.setBudget(budget);
}

}  // namespace once::studio::test
