#pragma once
// Where the codebook explorer's pictures come from (worker-thread functions, no widgets): the
// exemplar section of a codebook file (codebook/codebook_exemplars.h) with its thumbnails, the
// corpus folder its exemplar videos are found in, and exemplar patches cut from those videos
// when the codebook stores none.
#include <QImage>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>
#include <optional>

#include "codebook/codebook_exemplars.h"
#include "util/progress.h"

namespace once::studio {

/// The exemplar section of a codebook file, read and checked.
struct ExemplarSection {
    /// Absent for a codebook trained before provenance (or one not from a file).
    std::optional<once::CodebookExemplars> exemplars;
    /// Thumbnails stored in the file, [codeword][slot] (empty without thumbnails).
    QVector<QVector<QImage>> thumbnails;
    /// Where the exemplar cell lies in each thumbnail (fractions of its side), [codeword][slot].
    QVector<QVector<QRectF>> marks;
    /// A damaged section (the codebook itself loaded): the complete error, section ignored.
    QString error;
};

/// Reads the section of `codebookFile` whose codebook has `codewords` rows. Never throws: a bad
/// file comes back as `error`.
ExemplarSection readExemplarSection(const QString& codebookFile, std::int64_t codewords);

/// The folder the exemplar videos are looked for in: `userFolder` (chosen with Locate Corpus),
/// the recorded root when it exists, the recorded root relative to the codebook's folder, the
/// codebook's folder; the first in which any listed video exists. `found` receives how many of
/// them exist there. "" when none holds any.
QString resolveCorpusFolder(const once::CodebookExemplars& exemplars, const QString& codebookFile,
                            const QString& userFolder, int* found = nullptr);

/// Exemplar patches of one video as delivered by decodeExemplarPatches.
struct DecodedPatches {
    QVector<std::int64_t> codewords;
    QVector<int> slotIndex;
    QVector<QImage> images;
    QVector<QRectF> marks;
};

/// Decodes every listed video found under `folder` once (train/exemplar_pixels.h) and cuts
/// its exemplars with `context` cells around them at `side` × `side` pixels, calling `deliver`
/// after each video (on this thread). A video that cannot be read is skipped (counted in the return
/// value). Throws once::Cancelled through `progress`.
int decodeExemplarPatches(const once::CodebookExemplars& exemplars, const QString& folder, int side,
                          int context, once::Progress& progress,
                          const std::function<void(DecodedPatches)>& deliver);

/// Where an exemplar's cell lies in a picture of it with `context` cells around it: fractions of
/// the picture's width and height.
QRectF exemplarMark(const once::CodewordExemplar& exemplar, int context);

/// A square RGB image of `side` × `side` from U8 bytes.
QImage rgbImage(const std::uint8_t* bytes, int side);

}  // namespace once::studio
