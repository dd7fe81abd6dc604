#pragma once
// The compression methods as the studio shows them: names, titles and capabilities come from
// core's compressor registry (compress/token_compressor.h), so no widget compares method names
// and a new compressor appears in every menu, chart and panel by registering itself.
#include <QString>
#include <QStringList>

#include "compress/token_compressor.h"

namespace once::studio::methods {

/// The registry's methods in registry order, those with variants (ONCE) first.
QStringList all();
/// The default method (ONCE).
QString preferred();
/// The display title, translated ("once" → "ONCE", "spatial-pool" → "Spatial pooling").
QString title(const QString& method);
/// The registry's one-line summary, translated ("" for a name the registry does not know).
QString summary(const QString& method);
/// Whether the method needs a codebook (ONCE) — and so has no budget without one.
bool needsCodebook(const QString& method);
/// Whether the method takes ONCE's ablation variants.
bool hasVariants(const QString& method);
/// What a method's budget rule depends on: the video's T, P and grid, and K (0: no codebook).
once::BudgetShape budgetShape(const once::EncodedVideo& video, std::int64_t codebookSize);
/// The budgets the method honours on a video of `shape` (core's budgetRange; 1 … N for a name
/// the registry does not know).
once::BudgetRange budgetRange(const QString& method, const once::BudgetShape& shape);
/// What the method does with a budget and its valid range, for the slider's tooltip and the
/// budget panel ("ToMe: at most B tokens. Budgets 1–144 change the output.").
QString budgetRule(const QString& method, const once::BudgetShape& shape);

}  // namespace once::studio::methods
