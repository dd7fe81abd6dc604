// Values that make the tool compute garbage, allocate without bound or fail without naming the
// file (issue 26, items 6, 8, 10, 11, 12), through the real command line under prlimit and
// timeout (support/limited_cli.h), on a tiny Qwen3.5 folder exactly as transformers 5's
// save_pretrained writes it and on GGUF files written by gguf.GGUFWriter
// (tests/reference/hostile_model_files.py):
// - processor settings out of range (mean 1e300, std or rescale 1e-300) and NaN weights: exit 1
//   naming the file and the field, no feature file written;
// - a processor size of 2^31 (inside the file limits) and a zero-element tensor with huge dims:
//   refused before allocating, naming the field, in bounded memory;
// - file names that are not UTF-8 in --json output: encoded losslessly (\udcXX);
// - `eval merge` with one question id at two positions, a GGUF with more heads than hidden
//   values, a BOS id outside the vocabulary, `rms_norm_eps: "tiny"`, a feature file with T, P or
//   D of 0: refused naming the file and the field.
#include <ATen/ATen.h>

#include <QProcess>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "codebook/codebook.h"
#include "eval/results_merge.h"
#include "models/llava_ov/processor_config.h"
#include "models/qwen2/qwen2_config.h"
#include "support/limited_cli.h"
#include "support/models_fixture.h"
#include "support/safetensors_files.h"
#include "support/test_support.h"
#include "util/atomic_file.h"

using namespace once;
namespace fs = std::filesystem;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// A safetensors file whose header is `header` and that holds no data.
std::string rawSafetensors(const std::string& path, const std::string& header) {
    std::string bytes(8, '\0');
    const std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i) {
        bytes[std::size_t(i)] = char((n >> (8 * i)) & 0xFF);
    }
    std::ofstream(path, std::ios::binary) << bytes << header;
    return path;
}

}  // namespace

class TestHostileValues : public QObject {
    Q_OBJECT
    std::string dir_, qwen_, qwenNan_, features_, codebook_;

    // A copy of the Qwen3.5 folder with its processor_config.json's video processor edited.
    std::string qwenWith(const std::string& name,
                         const std::function<void(nlohmann::json&)>& edit) const {
        const std::string to = dir_ + "/" + name;
        fs::copy(qwen_, to, fs::copy_options::recursive);
        auto j = nlohmann::json::parse(test::readText(to + "/processor_config.json"));
        edit(j["video_processor"]);
        test::writeText(to + "/processor_config.json", j.dump(2));
        return to;
    }
    QStringList encode(const std::string& model, const std::string& out) const {
        return {"encode", test::kRealClip, "--model", q(model), "-o", q(out), "--dtype",
                "float32"};
    }

  private slots:
    void initTestCase() {
        dir_ = test::tempDir();
        for (const char* what : {"gguf", "qwen"}) {
            auto py = test::runPython("hostile_model_files.py", {q(dir_), what});
            QVERIFY2(py.exitCode == 0, qPrintable(py.err));
        }
        qwen_ = dir_ + "/qwen";
        qwenNan_ = dir_ + "/qwen_nan";
        at::manual_seed(7);
        features_ = test::writeSafetensors(
            dir_ + "/features.safetensors",
            {{"features", at::randn({2, 4, 3})}, {"frame_times", at::arange(2, at::kDouble)}},
            {{"format", "once-features/1"}, {"grid", "2x2"}});
        codebook_ = dir_ + "/cb.safetensors";
        Codebook::fromTensor(at::randn({5, 3})).save(codebook_);
        // The clean folder encodes: the refusals below are the edits' doing.
        const auto r = test::runCliLimited(encode(qwen_, dir_ + "/clean.safetensors"));
        QVERIFY2(r.exitCode == 0 && !r.crashed, qPrintable(r.text));
    }

    void processorSettingsOutOfRange_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("field");
        QTest::newRow("mean 1e300") << "image_mean" << 1e300 << "video_processor.image_mean[0]";
        QTest::newRow("std 1e-300") << "image_std" << 1e-300 << "video_processor.image_std[0]";
        QTest::newRow("rescale 1e-300") << "rescale_factor" << 1e-300
                                        << "video_processor.rescale_factor";
    }
    void processorSettingsOutOfRange() {
        QFETCH(QString, key);
        QFETCH(double, value);
        QFETCH(QString, field);
        const std::string model = qwenWith("range-" + key.toStdString(), [&](nlohmann::json& vp) {
            vp[key.toStdString()] = value;
        });
        const std::string out = dir_ + "/range.safetensors";
        test::expectRefused(encode(model, out), model + "/processor_config.json", out, field);
    }

    void siglipProcessorRangesToo() {
        // LLaVA-OneVision's reader applies the same ranges (models/llava_ov/processor_config.h).
        const std::string folder = test::tempDir();
        writeFileAtomically(folder + "/preprocessor_config.json",
                            R"({"image_processor_type": "SiglipImageProcessor",
                                "image_mean": [0.5, 1e300, 0.5], "image_std": [0.5, 0.5, 0.5]})");
        const OnceError e =
            test::errorOf([&] { SiglipPreprocessConfig::fromFolder(folder, 384); });
        QCOMPARE(e.where().field, std::string("image_mean[1]"));
        QVERIFY(e.where().file.find("preprocessor_config.json") != std::string::npos);
    }

    void nanWeightsWriteNoFeatures() {
        const std::string out = dir_ + "/nan.safetensors";
        test::expectRefused(encode(qwenNan_, out), out, out, "NaN");
        const auto r = test::runCliLimited(encode(qwenNan_, out));
        QVERIFY2(r.text.contains("features"), qPrintable(r.text));  // the field
    }

    void codebookOverflowingItsStoredDtypeIsNotWritten() {
        // Finite in F32, Inf in BF16 (max 3.39e38): the codebook's reader would refuse the file,
        // so the writer refuses to write it.
        const std::string path = test::tempDir() + "/bf16.safetensors";
        const Codebook cb = Codebook::fromTensor(at::full({2, 3}, 3.4e38f));
        const OnceError e = test::errorOf([&] { cb.save(path, "BF16"); });
        QCOMPARE(e.where().file, path);
        QCOMPARE(e.where().field, std::string("codebook"));
        QVERIFY(!fs::exists(path));
        cb.save(path, "F32");  // representable: written
        QVERIFY(fs::exists(path));
    }

    void hugeProcessorSizeRefusedBeforeAllocating() {
        // 2^31 pixels as the minimum: transformers would resize each frame of the 320 x 240
        // clip to tens of thousands of pixels a side (gigabytes); the 3 GB limit of the run
        // would kill an attempt.
        const std::string model = qwenWith("huge-size", [](nlohmann::json& vp) {
            vp["size"] = {{"shortest_edge", 2147483648LL}, {"longest_edge", 2147483648LL}};
        });
        const std::string out = dir_ + "/huge.safetensors";
        test::expectRefused(encode(model, out), model + "/processor_config.json", out,
                            "size.shortest_edge");
    }

    void zeroElementTensorsWithHugeDims() {
        // LibTorch computes strides from every dimension of an empty tensor: refused while the
        // header is parsed, naming the tensor, instead of "Stride calculation overflowed".
        const std::string cb = rawSafetensors(
            dir_ + "/empty_huge_cb.safetensors",
            R"({"codebook":{"dtype":"F32","shape":[0,4294967296,4294967296],"data_offsets":[0,0]}})");
        test::expectRefused({"compress", "--features", q(features_), "--codebook", q(cb), "-o",
                             q(dir_ + "/o.safetensors")},
                            cb, dir_ + "/o.safetensors", "codebook.shape");
        // The same as a model's patch embedding.
        const std::string model = dir_ + "/empty-patch-embedding";
        fs::copy(qwen_, model, fs::copy_options::recursive);
        rawSafetensors(
            model + "/model.safetensors",
            R"({"model.visual.patch_embed.proj.weight":{"dtype":"F32",)"
            R"("shape":[0,3,2,4294967296,4294967296],"data_offsets":[0,0]}})");
        const std::string out = dir_ + "/pe.safetensors";
        test::expectRefused(encode(model, out), model + "/model.safetensors", out,
                            "patch_embed.proj.weight.shape");
    }

    void featureFilesWithoutTokensNameTheFile() {
        for (const auto& [name, shape] :
             {std::pair{std::string("t0.safetensors"), std::vector<std::int64_t>{0, 4, 3}},
              std::pair{std::string("p0.safetensors"), std::vector<std::int64_t>{2, 0, 3}},
              std::pair{std::string("d0.safetensors"), std::vector<std::int64_t>{2, 4, 0}}}) {
            const std::string f = test::writeSafetensors(
                dir_ + "/" + name,
                {{"features", at::zeros(shape)}, {"frame_times", at::arange(shape[0], at::kDouble)}},
                {{"format", "once-features/1"}});
            test::expectRefused({"compress", "--features", q(f), "--codebook", q(codebook_), "-o",
                                 q(dir_ + "/o.safetensors")},
                                f, dir_ + "/o.safetensors", "features (");
        }
    }

    void nonUtf8NamesInJsonAreLossless() {
        // `once info --json` and `once encode --json` print file names, and Linux names are
        // bytes: a Latin-1 "é" and a lone 0xFF. Python builds the names from bytes and checks,
        // as a user's script would, that os.fsencode(json.loads(...)) gives them back.
        const char* script = R"(
import json, os, shutil, subprocess, sys
cli, folder, features, video = (os.fsencode(a) for a in sys.argv[1:5])
name = os.path.join(folder, b"caf\xe9-\xff.safetensors")
shutil.copyfile(features, name)
out = subprocess.run([cli, b"info", name, b"--json"], capture_output=True)
assert out.returncode == 0, out.stderr
assert b"\\udce9" in out.stdout and b"\\udcff" in out.stdout, out.stdout
assert os.fsencode(json.loads(out.stdout)["file"]) == name
enc = os.path.join(folder, b"\xfe.enc.safetensors")
out = subprocess.run([cli, b"encode", video, b"--sampling", b"uniform:2", b"-o", enc,
                      b"--json"], capture_output=True)
assert out.returncode == 0, out.stderr
assert os.fsencode(json.loads(out.stdout)["output"]) == enc
assert os.path.exists(enc)
print("ok")
)";
        QProcess p;
        p.start(ONCE_TEST_PYTHON, {"-c", script, ONCE_CLI_PATH, q(test::tempDir()), q(features_),
                                   q(test::sourcePath("resources/demo/demo.mp4"))});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, qPrintable(p.readAllStandardError()));
        QVERIFY(p.readAllStandardOutput().contains("ok"));
    }

    void evalMergeRefusesOneIdAtTwoPositions() {
        const std::string d = test::tempDir();
        auto plan = [&](std::int64_t index, std::int64_t count, std::int64_t total,
                        std::vector<EvalShardQuestion> questions) {
            EvalShardPlan p;
            p.shard.index = index;
            p.shard.count = count;
            p.benchmark = "mvbench";
            p.config = "cfg";
            p.jobs = {{"dense", {}, 0, 0}};
            p.questionsTotal = total;
            p.videosTotal = total;
            p.questions = std::move(questions);
            const std::string results = d + "/r" + std::to_string(index) + "of" +
                                        std::to_string(count) + "-" + std::to_string(total) +
                                        ".jsonl";
            test::writeText(results, "");
            test::writeText(evalShardPlanPath(results), p.toJson().dump(1));
            return results;
        };
        // Two shards, each listing "q1": at position 0 in one, at position 1 in the other.
        const std::string a = plan(0, 2, 2, {{"q1", 0, 0}});
        const std::string b = plan(1, 2, 2, {{"q1", 1, 1}});
        const std::string out = d + "/merged.jsonl";
        test::expectRefused({"eval", "merge", q(a), q(b), "-o", q(out)}, a + ".shard.json", out,
                            "a question id at two positions");
        // One plan listing it twice (videos 0 and 2 of shard 0/2).
        const std::string c = plan(0, 2, 3, {{"q1", 0, 0}, {"q1", 2, 2}});
        test::expectRefused({"eval", "merge", q(c), "-o", q(out)}, c + ".shard.json", out,
                            "questions[1].id");
    }

    void ggufMetadataRefusedAtLoad_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("field");
        QTest::newRow("16 heads, hidden size 8") << "heads.gguf"
                                                 << "llama.attention.head_count";
        QTest::newRow("BOS id 99 of 4 tokens") << "bos_range.gguf"
                                               << "tokenizer.ggml.bos_token_id";
        QTest::newRow("BOS id -1") << "bos_negative.gguf"
                                   << "tokenizer.ggml.bos_token_id";
    }
    void ggufMetadataRefusedAtLoad() {
        QFETCH(QString, file);
        QFETCH(QString, field);
        const std::string path = dir_ + "/" + file.toStdString();
        test::expectRefused({"generate", "--model", q(path), "--prompt", "hi"}, path, {}, field);
    }

    void rmsNormEpsMustBeANumber() {
        // Present but not a number: refused, not silently replaced by the default.
        nlohmann::json j = {{"model_type", "qwen2"},        {"vocab_size", 32},
                            {"hidden_size", 16},            {"intermediate_size", 32},
                            {"num_hidden_layers", 1},       {"num_attention_heads", 2},
                            {"rms_norm_eps", "tiny"}};
        const OnceError e = test::errorOf([&] { Qwen2Config::fromJson(j, "config.json"); });
        QCOMPARE(e.where().file, std::string("config.json"));
        QCOMPARE(e.where().field, std::string("rms_norm_eps"));
        j.erase("rms_norm_eps");  // absent: transformers' default
        QCOMPARE(Qwen2Config::fromJson(j, "config.json").rmsNormEps, 1e-6);
    }
};

QTEST_GUILESS_MAIN(TestHostileValues)
#include "test_hostile_values.moc"
