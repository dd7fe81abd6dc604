#include "train/codebook_fit_file.h"

#include <ATen/ATen.h>

#include <filesystem>

#include "codebook/codebook.h"
#include "codebook/codebook_writer.h"
#include "train/cache_reader.h"
#include "util/error.h"
#include "util/progress.h"

namespace once {

CodebookFileResult fitCodebookFile(const CacheReader& cache, const FitConfig& config,
                                   const CodebookFileRequest& request, Progress* progress) {
    if (request.storeDtype != "F32" && request.storeDtype != "BF16") {  // before hours of fitting
        fail("unsupported codebook dtype", request.output, "store-dtype", "F32 or BF16",
             request.storeDtype);
    }
    // The outputs before hours of fitting: the codebook as the user allows, the resume state
    // (the fit's own file) only new or a regular file.
    checkOutputPath(request.output, request.replace, "output");
    checkOutputPath(request.state, OutputReplace::regularFile, "state");
    std::error_code ec;
    const bool stateExisted =
        std::filesystem::exists(std::filesystem::symlink_status(request.state, ec));
    CodebookFileResult out;
    try {
        out.fit = fitCodebook(cache, config, progress, request.state);
        if (progress) {
            progress->throwIfCancelled();
        }
        const StageAManifest& manifest = cache.manifest();
        const Codebook stored = Codebook::fromTensor(out.fit.codebook, manifest.backbone,
                                                     manifest.featureSource, request.output);
        FitResult asStored = out.fit;
        if (request.storeDtype == "BF16") {
            asStored.codebook = out.fit.codebook.to(at::kBFloat16).to(at::kFloat);
        }
        auto meta = trainedCodebookMetadata(cache, asStored, request.metadata, progress);
        out.exemplars =
            selectCodebookExemplars(cache, asStored.codebook, request.exemplars, progress);
        std::vector<std::pair<std::string, at::Tensor>> tensors;
        out.exemplars.addTo(meta, tensors);
        saveCodebookFile(stored, request.output, request.storeDtype, meta, tensors,
                         request.replace);
        out.fit.metadata["diagnostics"] = meta.at("diagnostics");
    } catch (const OnceError&) {
        if (!stateExisted) {
            std::filesystem::remove(request.state, ec);
        }
        throw;
    }
    std::filesystem::remove(request.state, ec);
    return out;
}

}  // namespace once
