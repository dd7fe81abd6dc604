// LLaVA-OneVision visual encoder (SigLIP + mlp2x_gelu projector + pooling) against Hugging Face
// transformers on tiny random models built by tests/reference/llava_ov_vision_reference.py:
// a 4×4 grid (vision_feature_layer -2) and the published geometry (384-pixel images, 14-pixel
// patches: a 27×27 grid from the top-left 378×378 pixels; layer -1, 16 heads), the latter saved in
// every layout users download: transformers 5 (processor_config.json, single and sharded), F16,
// BF16, the older llava-hf hub folders, transformers 4.5x names, and lmms-lab's LLaVA-NeXT folders.
#include <ATen/ATen.h>

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "io/tensor_io.h"
#include "models/hf_checkpoint.h"
#include "models/llava_ov/llava_ov_encoder.h"
#include "models/llava_ov/siglip_preprocess.h"
#include "support/test_support.h"
#include "util/error.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

// Ours (torch's antialiased bicubic on uint8, as transformers' torchvision backend) against the
// Pillow backend of SiglipImageProcessor, in uint8 steps of the resized image: measured max
// 1.92 (69×107 → 56) and 3.85 (397×763 → 384, the published size) with means of 0.0073-0.0077
// (a few pixels round to a neighbouring byte or a few), see docs/models.md.
constexpr double kProcessorMaxSteps = 5;
constexpr double kProcessorMeanSteps = 0.02;

struct Reference {
    std::string dir;
    at::Tensor frames, pixels, s1, s2, newline;
    at::Tensor attention1, attention2;  ///< attention received, unpooled and stride-2 pooled
    at::Tensor pixelsProcessor;         ///< SiglipImageProcessor (Pillow backend) of transformers
    std::string source;
    std::map<std::string, at::Tensor>
        extra;  ///< features_s{1,2}_{f16,bf16,next}, pixel_values_next
};

Reference makeReference(const QStringList& args) {
    Reference r;
    r.dir = test::tempDir();
    auto res = test::runPython("llava_ov_vision_reference.py",
                               QStringList{QString::fromStdString(r.dir)} + args);
    if (res.exitCode != 0) {
        qWarning().noquote() << res.err;
    }
    [&] { QCOMPARE(res.exitCode, 0); }();
    auto f = SafetensorsFile::open(r.dir + "/reference.safetensors");
    r.frames = loadTensor(f, "frames").clone();
    r.pixels = loadTensor(f, "pixel_values").clone();
    r.pixelsProcessor = loadTensor(f, "pixel_values_hf_processor").clone();
    r.s1 = loadTensor(f, "features_s1").clone();
    r.s2 = loadTensor(f, "features_s2").clone();
    r.newline = loadTensor(f, "newline").clone();
    r.attention1 = loadTensor(f, "attention_s1").clone();
    r.attention2 = loadTensor(f, "attention_s2").clone();
    r.source = f.meta("preprocess_source");
    for (const TensorEntry& e : f.tensors()) {
        if (e.name.find("_f16") != std::string::npos || e.name.find("_bf16") != std::string::npos ||
            e.name.find("_next") != std::string::npos) {
            r.extra[e.name] = loadTensor(f, e.name).clone();
        }
    }
    return r;
}

EncoderOptions options(const std::string& dir, int stride, const std::string& dtype = "float32") {
    EncoderOptions o;
    o.modelDir = dir;
    o.poolStride = stride;
    o.dtype = dtype;
    return o;
}

/// A copy of `src` (config, preprocessor config, one safetensors) with tensors changed by `edit`.
std::string copyModel(const std::string& src,
                      const std::function<void(std::map<std::string, at::Tensor>&)>& edit) {
    const std::string dst = test::tempDir() + "/edited";
    fs::create_directories(dst);
    fs::copy_file(src + "/config.json", dst + "/config.json");
    fs::copy_file(src + "/preprocessor_config.json", dst + "/preprocessor_config.json");
    HfCheckpoint ck = HfCheckpoint::open(src);
    std::map<std::string, at::Tensor> tensors;
    for (const std::string& n : ck.names()) {
        tensors[n] = ck.get(n).clone();
    }
    edit(tensors);
    SafetensorsWriter w;
    for (auto& [n, t] : tensors) {
        addTensor(w, n, t);
    }
    w.write(dst + "/model.safetensors");
    return dst;
}

void editConfig(const std::string& dir, const std::function<void(nlohmann::json&)>& edit) {
    std::ifstream in(dir + "/config.json");
    nlohmann::json j = nlohmann::json::parse(in);
    in.close();
    edit(j);
    std::ofstream(dir + "/config.json") << j.dump(2);
}

}  // namespace

class TestLlavaOvEncoder : public QObject {
    Q_OBJECT
    Reference small_, full_, multi_;

    void checkParity(const std::string& dir, const Reference& r, int stride, const char* what) {
        LlavaOvEncoder enc(options(dir, stride));
        const at::Tensor& want = stride == 1 ? r.s1 : r.s2;
        EncodedVideo fromFrames = enc.encode(r.frames);
        EncodedVideo fromPixels = enc.encodePixels(r.pixels);
        QCOMPARE(fromFrames.features.sizes().vec(), want.sizes().vec());
        QCOMPARE(std::int64_t(fromFrames.gridH) * fromFrames.gridW, want.size(1));
        const double ePix = test::maxAbsDiff(fromPixels.features, want);
        const double eFrames = test::maxAbsDiff(fromFrames.features, want);
        qInfo("%s stride %d: max |C++ - HF| = %.3g (from HF pixels), %.3g (from frames)", what,
              stride, ePix, eFrames);
        QVERIFY2(ePix <= 1e-4, what);
        QVERIFY2(eFrames <= 1e-4, what);
        QCOMPARE(test::maxAbsDiff(fromFrames.layoutTokens, r.newline), 0.0);
        // The attention each patch receives, pooled like the features; rows of the unpooled
        // one are distributions over the patches.
        const at::Tensor& wantAttention = stride == 1 ? r.attention1 : r.attention2;
        QVERIFY2(fromPixels.attention.defined(), what);
        QCOMPARE(fromPixels.attention.sizes().vec(), wantAttention.sizes().vec());
        const double eAtt = test::maxAbsDiff(fromPixels.attention, wantAttention);
        qInfo("%s stride %d: attention received, max |C++ - HF eager| = %.3g", what, stride, eAtt);
        QVERIFY2(eAtt <= 1e-6, what);
        QVERIFY2(test::maxAbsDiff(fromFrames.attention, wantAttention) <= 1e-5, what);
        if (stride == 1) {
            QVERIFY(test::maxAbsDiff(fromPixels.attention.sum(1),
                                     at::ones({fromPixels.attention.size(0)})) <= 1e-5);
        }
    }

  private slots:
    void initTestCase() {
        small_ = makeReference({"--grid", "4", "--patch", "14", "--layer", "-2"});
        full_ =
            makeReference({"--grid", "27", "--patch", "14", "--image-size", "384", "--layer", "-1",
                           "--heads", "16", "--frames", "2", "--llava-next", "--layouts"});
        multi_ = makeReference({"--grid", "3", "--patch", "14", "--layer=0,-1", "--frames", "2"});
        qInfo("reference preprocessing: %s", small_.source.c_str());
    }

    void parityStride1() { checkParity(small_.dir + "/model", small_, 1, "4x4 grid, layer -2"); }
    void parityStride2() { checkParity(small_.dir + "/model", small_, 2, "4x4 grid, layer -2"); }
    void parity27GridStride1() { checkParity(full_.dir + "/model", full_, 1, "27x27 grid"); }
    void parity27GridStride2() {
        checkParity(full_.dir + "/model", full_, 2, "27x27 grid");
        LlavaOvEncoder enc(options(full_.dir + "/model", 2));
        QCOMPARE(enc.encodePixels(full_.pixels).gridH, 14);  // ceil(27 / 2): 196 tokens a frame
    }

    void featureLayerList() {
        // vision_feature_layer [0, -1]: embeddings and last layer concatenated (2 × 32 wide);
        // an odd 3×3 grid pools to ceil(3 / 2) = 2.
        checkParity(multi_.dir + "/model", multi_, 1, "layers [0, -1]");
        checkParity(multi_.dir + "/model", multi_, 2, "layers [0, -1]");
    }

    void shardedFolder() {
        QVERIFY(fs::exists(small_.dir + "/model_sharded/model.safetensors.index.json"));
        checkParity(small_.dir + "/model_sharded", small_, 2, "sharded");
    }

    void originalKeyNames() {
        LlavaOvEncoder enc(options(small_.dir + "/model_orig", 1));
        QCOMPARE(enc.projectorLayout(), std::string("mm_projector"));
        checkParity(small_.dir + "/model_orig", small_, 1, "mm_projector keys");
    }

    void publishedGeometry() {
        // 384 is not a multiple of 14: the tower sees floor(384 / 14) = 27 patches a side.
        LlavaOvEncoder enc(options(full_.dir + "/model", 1));
        QCOMPARE(enc.config().vision.imageSize, std::int64_t(384));
        QCOMPARE(enc.config().vision.patchSize, std::int64_t(14));
        QCOMPARE(enc.config().vision.grid(), std::int64_t(27));
        QCOMPARE(full_.pixels.size(2), std::int64_t(384));
        // The right and bottom 6 pixels are not seen, as in transformers' convolution.
        at::Tensor shifted = full_.pixels.clone();
        shifted.slice(2, 378).fill_(3.0);
        shifted.slice(3, 378).fill_(-3.0);
        QCOMPARE(test::maxAbsDiff(enc.encodePixels(shifted).features,
                                  enc.encodePixels(full_.pixels).features),
                 0.0);
    }

    void everyCheckpointLayout_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("weights");  // which reference features: "", f16, bf16, next
        QTest::addColumn<QString>("source");   // the processor file that must be followed
        QTest::newRow("transformers 5 F32") << "model_hf5"
                                            << ""
                                            << "processor_config.json (video_processor)";
        QTest::newRow("transformers 5 F16") << "model_f16"
                                            << "f16"
                                            << "processor_config.json (video_processor)";
        QTest::newRow("transformers 5 BF16") << "model_bf16"
                                             << "bf16"
                                             << "processor_config.json (video_processor)";
        QTest::newRow("transformers 5 BF16 sharded") << "model_sharded_bf16"
                                                     << "bf16"
                                                     << "processor_config.json (video_processor)";
        QTest::newRow("llava-hf hub F16") << "model_hub"
                                          << "f16"
                                          << "video_preprocessor_config.json";
        QTest::newRow("transformers 4.5x names") << "model_v4"
                                                 << ""
                                                 << "preprocessor_config.json";
        QTest::newRow("lmms-lab LLaVA-NeXT BF16") << "model_llava_next"
                                                  << "next"
                                                  << "";
    }

    void everyCheckpointLayout() {
        QFETCH(QString, folder);
        QFETCH(QString, weights);
        QFETCH(QString, source);
        const std::string dir = full_.dir + "/" + folder.toStdString();
        const std::string tag = weights.isEmpty() ? "" : "_" + weights.toStdString();
        auto want = [&](int stride) {
            const std::string key = "features_s" + std::to_string(stride) + tag;
            if (tag.empty()) {
                return stride == 1 ? full_.s1 : full_.s2;
            }
            return full_.extra.at(key);
        };
        for (int stride : {1, 2}) {
            LlavaOvEncoder enc(options(dir, stride));
            QCOMPARE(enc.config().vision.grid(), std::int64_t(27));
            // Settings for videos come from the video processor where there is one; the hub
            // folder's image processor says OpenAI CLIP, its video processor the real values.
            if (source.isEmpty()) {
                QVERIFY(enc.preprocessConfig().source.empty());
                QVERIFY(!enc.notices().empty());
                QVERIFY2(enc.notices()[0].find("mean = std = 0.5") != std::string::npos,
                         enc.notices()[0].c_str());
            } else {
                QVERIFY2(QString::fromStdString(enc.preprocessConfig().source).endsWith(source),
                         enc.preprocessConfig().source.c_str());
                QVERIFY(enc.notices().empty());
                QCOMPARE(enc.preprocessConfig().mean[1], 0.48);
                QCOMPARE(enc.preprocessConfig().std[2], 0.26);
            }
            const EncodedVideo v = enc.encode(full_.frames);
            const double e = test::maxAbsDiff(v.features, want(stride));
            qInfo("%s stride %d: max |C++ - HF| = %.3g", qPrintable(folder), stride, e);
            QVERIFY2(e <= 1e-4, qPrintable(folder));
            // image_newline, found under each layout's name, stored rounded to F16 / BF16.
            QCOMPARE(v.layoutTokens.sizes().vec(), (std::vector<std::int64_t>{1, 48}));
            QVERIFY(test::maxAbsDiff(v.layoutTokens, full_.newline) <=
                    (tag.empty() ? 0.0 : 0.01 * full_.newline.abs().max().item<double>()));
        }
        if (folder == "model_llava_next") {
            LlavaOvEncoder enc(options(dir, 2));
            QCOMPARE(enc.config().configLayout, std::string("llava-next"));
            QCOMPARE(enc.config().vision.imageSize, std::int64_t(384));  // from mm_vision_tower
            QCOMPARE(enc.config().vision.numHeads, std::int64_t(16));
            QVERIFY(test::maxAbsDiff(enc.encodePixels(full_.extra.at("pixel_values_next")).features,
                                     full_.extra.at("features_s2_next")) <= 1e-4);
        }
    }

    void preprocessingMatchesHuggingFace() {
        for (const Reference* r : {&small_, &full_}) {
            auto cfg = SiglipPreprocessConfig::fromFolder(r->dir + "/model", 0);
            QCOMPARE(cfg.mean[1], 0.48);
            at::Tensor px = siglipPreprocess(r->frames, cfg);
            const double e = test::maxAbsDiff(px, r->pixels);
            // One uint8 step of the resize is 1/255/std ≈ 0.015: a bound of 1e-5 means the
            // resized bytes are identical and only float rounding of the normalisation remains.
            qInfo("preprocessing %lldx%lld -> %lld: max |C++ - HF| = %.3g (%s)",
                  (long long)r->frames.size(1), (long long)r->frames.size(2), (long long)cfg.height,
                  e, r->source.c_str());
            QVERIFY(e <= 1e-5);

            // The checkpoints' own processor class resizes with Pillow's bicubic: close, not
            // bit-exact. Differences in uint8 steps of the resized image (1 step = 1/255/std).
            const double step = 1.0 / 255.0 / cfg.std[0];
            const at::Tensor d = (px - r->pixelsProcessor).abs();
            const double maxSteps = d.max().item<double>() / step;
            const double meanSteps = d.mean().item<double>() / step;
            qInfo("vs transformers SiglipImageProcessor (Pillow): max %.2f, mean %.4f uint8 steps",
                  maxSteps, meanSteps);
            QVERIFY2(maxSteps <= kProcessorMaxSteps, std::to_string(maxSteps).c_str());
            QVERIFY2(meanSteps <= kProcessorMeanSteps, std::to_string(meanSteps).c_str());
        }
    }

    void reducedPrecision() {
        for (const char* dtype : {"bfloat16", "float16"}) {
            LlavaOvEncoder enc(options(full_.dir + "/model", 2, dtype));
            EncodedVideo v = enc.encode(full_.frames);
            const double scale = full_.s2.abs().max().item<double>();
            const double e = test::maxAbsDiff(v.features, full_.s2);
            qInfo("%s: max |C++ - HF f32| = %.3g (max |feature| %.3g)", dtype, e, scale);
            QVERIFY(e <= 0.05 * scale);
            QCOMPARE(v.features.scalar_type(),
                     std::string(dtype) == "bfloat16" ? at::kBFloat16 : at::kHalf);
        }
    }

    void registeredBackbone() {
        auto names = visualEncoderNames();
        QVERIFY(std::find(names.begin(), names.end(), "llava-onevision") != names.end());
        auto enc = makeVisualEncoder("llava-onevision", options(small_.dir + "/model", 2));
        QCOMPARE(enc->backbone(), std::string("llava-onevision"));
        QCOMPARE(enc->dim(), std::int64_t(48));
        EncodedVideo v = enc->encode(small_.frames.slice(0, 0, 0));
        QCOMPARE(v.features.sizes().vec(), (std::vector<std::int64_t>{0, 4, 48}));
    }

    void badInputsAndFolders() {
        const std::string src = small_.dir + "/model";
        auto expectError = [](const std::function<void()>& f, const std::string& file,
                              const std::string& field) {
            try {
                f();
                QFAIL("no error");
            } catch (const OnceError& e) {
                qInfo("%s", e.what());
                QVERIFY2(e.where().file.find(file) != std::string::npos, e.what());
                QCOMPARE(e.where().field, field);
            }
        };
        const std::string missing =
            copyModel(src, [](auto& t) { t.erase("multi_modal_projector.linear_2.weight"); });
        expectError([&] { LlavaOvEncoder e(options(missing, 1)); }, missing,
                    "multi_modal_projector.linear_2.weight");
        const std::string badShape = copyModel(src, [](auto& t) {
            t["vision_tower.embeddings.position_embedding.weight"] = at::zeros({15, 32});
        });
        expectError([&] { LlavaOvEncoder e(options(badShape, 1)); }, badShape,
                    "vision_tower.embeddings.position_embedding.weight");
        const std::string noField = copyModel(src, [](auto&) {});
        editConfig(noField, [](nlohmann::json& j) { j["vision_config"].erase("patch_size"); });
        expectError([&] { LlavaOvEncoder e(options(noField, 1)); }, noField + "/config.json",
                    "vision_config.patch_size");
        const std::string noText = copyModel(src, [](auto&) {});
        editConfig(noText, [](nlohmann::json& j) { j["text_config"].erase("hidden_size"); });
        expectError([&] { LlavaOvEncoder e(options(noText, 1)); }, "config.json",
                    "text_config.hidden_size");
        const std::string badLayer = copyModel(src, [](auto&) {});
        editConfig(badLayer, [](nlohmann::json& j) { j["vision_feature_layer"] = -5; });
        expectError([&] { LlavaOvEncoder e(options(badLayer, 1)); }, "config.json",
                    "vision_feature_layer");

        LlavaOvEncoder enc(options(src, 1));
        expectError([&] { enc.encode(at::zeros({2, 10, 10, 3}, at::kFloat)); }, "", "frames");
        expectError([&] { enc.encode(at::zeros({2, 10, 10}, at::kByte)); }, "", "frames");
        expectError([&] { LlavaOvEncoder e(options(src, 1, "int8")); }, "", "dtype");
    }
};

QTEST_GUILESS_MAIN(TestLlavaOvEncoder)
#include "test_llava_ov_encoder.moc"
