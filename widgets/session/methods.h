#pragma once
// The compression methods as the studio shows them: names, titles and capabilities come from
// core's compressor registry (compress/token_compressor.h), so no widget compares method names
// and a new compressor appears in every menu, chart and panel by registering itself.
#include <QString>
#include <QStringList>

namespace once::studio::methods {

/// The registry's methods in registry order, those with variants (ONCE) first.
QStringList all();
/// The default method (ONCE).
QString preferred();
/// The display title, translated ("once" → "ONCE", "spatial-pool" → "Spatial pooling").
QString title(const QString& method);
/// Whether the method needs a codebook (ONCE) — and so has no budget without one.
bool needsCodebook(const QString& method);
/// Whether the method takes ONCE's ablation variants.
bool hasVariants(const QString& method);
/// One line on what the method does with a budget on a T × P video (K codewords when it needs
/// a codebook), and its valid range, for the slider's tooltip and the panel.
QString budgetRule(const QString& method, std::int64_t frames, std::int64_t patches,
                   std::int64_t codebookSize);

}  // namespace once::studio::methods
