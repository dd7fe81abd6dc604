#include "explorer/exemplar_source.h"

#include <ATen/ATen.h>

#include <QDir>
#include <QFileInfo>
#include <map>

#include "io/safetensors.h"
#include "train/exemplar_pixels.h"
#include "util/error.h"
#include "util/exception_text.h"

namespace once::studio {

QImage rgbImage(const std::uint8_t* bytes, int side) {
    QImage image(side, side, QImage::Format_RGB888);
    for (int y = 0; y < side; ++y) {
        std::memcpy(image.scanLine(y), bytes + std::size_t(y) * std::size_t(side) * 3,
                    std::size_t(side) * 3);
    }
    return image;
}

QRectF exemplarMark(const once::CodewordExemplar& x, int context) {
    const auto [r0, rn] = once::exemplarContextWindow(x.row, x.gridRows, context);
    const auto [c0, cn] = once::exemplarContextWindow(x.col, x.gridCols, context);
    return QRectF(double(x.col - c0) / cn, double(x.row - r0) / rn, 1.0 / cn, 1.0 / rn);
}

ExemplarSection readExemplarSection(const QString& codebookFile, std::int64_t codewords) {
    ExemplarSection out;
    if (codebookFile.isEmpty() || !codebookFile.endsWith(QLatin1String(".safetensors"))) {
        return out;  // in memory, .npy or .pt: no section
    }
    try {
        const once::SafetensorsFile f = once::SafetensorsFile::open(codebookFile.toStdString());
        out.exemplars = once::parseCodebookExemplars(f.header(), f.image(), codewords, f.path());
        if (out.exemplars && out.exemplars->thumbnailSide > 0) {
            const auto& e = *out.exemplars;
            out.thumbnails.resize(int(e.codewords));
            out.marks.resize(int(e.codewords));
            for (std::int64_t k = 0; k < e.codewords; ++k) {
                for (int j = 0; j < e.exemplarCount(k); ++j) {
                    const auto bytes = e.thumbnail(f.image(), k, j);
                    out.thumbnails[int(k)].append(
                        bytes.empty() ? QImage() : rgbImage(bytes.data(), e.thumbnailSide));
                    out.marks[int(k)].append(exemplarMark(e.exemplar(k, j), e.thumbnailContext));
                }
            }
        }
    } catch (const std::exception& e) {
        out.exemplars.reset();
        out.thumbnails.clear();
        out.error = QString::fromStdString(once::userMessage(e));
    }
    return out;
}

QString resolveCorpusFolder(const once::CodebookExemplars& exemplars, const QString& codebookFile,
                            const QString& userFolder, int* found) {
    const QString root = QString::fromStdString(exemplars.root);
    const QDir codebookDir = QFileInfo(codebookFile).absoluteDir();
    QStringList candidates;
    if (!userFolder.isEmpty()) {
        candidates << userFolder;
    }
    if (!root.isEmpty() && QDir::isAbsolutePath(root)) {
        candidates << root;
    } else {
        if (!root.isEmpty()) {
            candidates << codebookDir.filePath(root);
        }
        candidates << QDir::currentPath() + QLatin1Char('/') + root;
    }
    candidates << codebookDir.absolutePath();
    for (const QString& c : candidates) {
        const QDir dir(c);
        if (!dir.exists()) {
            continue;
        }
        int n = 0;
        for (const auto& v : exemplars.videos) {
            n += QFileInfo::exists(dir.filePath(QString::fromStdString(v))) ? 1 : 0;
        }
        if (n > 0) {
            if (found) {
                *found = n;
            }
            return dir.absolutePath();
        }
    }
    if (found) {
        *found = 0;
    }
    return {};
}

int decodeExemplarPatches(const once::CodebookExemplars& e, const QString& folder, int side,
                          int context, once::Progress& progress,
                          const std::function<void(DecodedPatches)>& deliver) {
    // Slots of each listed video.
    std::map<std::int32_t, std::vector<std::pair<std::int64_t, int>>> slotsOf;
    for (std::int64_t k = 0; k < e.codewords; ++k) {
        for (int j = 0; j < e.exemplarCount(k); ++j) {
            slotsOf[e.exemplar(k, j).video].emplace_back(k, j);
        }
    }
    progress.begin("decoding exemplar patches", double(slotsOf.size()));
    const QDir dir(folder);
    int failed = 0, done = 0;
    for (const auto& [video, videoSlots] : slotsOf) {
        progress.throwIfCancelled();
        const QString entry = dir.filePath(QString::fromStdString(e.videos[std::size_t(video)]));
        std::vector<once::ExemplarLocation> where;
        for (const auto& [k, j] : videoSlots) {
            const auto& x = e.exemplar(k, j);
            where.push_back({x.sourceFrame, x.timeMs, x.row, x.col, x.gridRows, x.gridCols});
        }
        try {
            const std::string pixels = once::exemplarPixelSource(entry.toStdString());
            if (pixels.empty()) {
                ++failed;
            } else {
                std::vector<bool> found;
                const at::Tensor cut =
                    once::cutExemplarPatches(pixels, where, side, found, {}, context).contiguous();
                DecodedPatches d;
                for (std::size_t i = 0; i < where.size(); ++i) {
                    if (found[i]) {
                        d.codewords.append(videoSlots[i].first);
                        d.slotIndex.append(videoSlots[i].second);
                        d.images.append(
                            rgbImage(cut[std::int64_t(i)].data_ptr<std::uint8_t>(), side));
                        d.marks.append(exemplarMark(
                            e.exemplar(videoSlots[i].first, videoSlots[i].second), context));
                    }
                }
                deliver(std::move(d));
            }
        } catch (const once::OnceError&) {
            ++failed;  // unreadable or missing: its tiles keep their colour
        }
        progress.update(double(++done));
    }
    return failed;
}

}  // namespace once::studio
