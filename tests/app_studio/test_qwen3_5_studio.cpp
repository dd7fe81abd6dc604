// Qwen3.5 in the studio: a Qwen3.5 model folder is recognised as its backbone (with the
// backbone's sampling and the hybrid stack's sizes for the FLOP charts), the settings dialog
// moves the frame sampling with the backbone (uniform:32 ↔ fps:2:4:256, the paper's) and the
// patch-grid choice is off for Qwen, and the overlay's pictures of a Qwen video are its temporal
// pairs: one picture per feature frame (the pair's first frame), each cell coloured by the mean
// of both frames.
#include <ATen/ATen.h>

#include <QComboBox>
#include <QLineEdit>
#include <QtTest>
#include <filesystem>

#include "io/safetensors.h"
#include "session/model_folder.h"
#include "session/video_data.h"
#include "settings_dialog.h"
#include "studio_app_test.h"
#include "support/test_support.h"
#include "util/atomic_file.h"

using namespace once::studio;

class TestQwen3_5Studio : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { once::studio::test::initStudioTestApplication(); }

    void settingsFollowTheBackbone() {
        PipelineSettings p;  // demo, uniform:32
        SettingsDialog dialog(p, QString());
        auto* backbone = dialog.findChild<QComboBox*>(QStringLiteral("backbone"));
        auto* sampling = dialog.findChild<QLineEdit*>(QStringLiteral("sampling"));
        auto* grid = dialog.findChild<QComboBox*>(QStringLiteral("patchGrid"));
        QVERIFY(backbone && sampling && grid);
        QVERIFY(backbone->findData(QStringLiteral("qwen3.5")) >= 0);
        backbone->setCurrentIndex(backbone->findData(QStringLiteral("qwen3.5")));
        QCOMPARE(sampling->text(), QStringLiteral("fps:2:4:256"));
        QVERIFY(!grid->isEnabled());
        QCOMPARE(dialog.pipeline().backbone, QStringLiteral("qwen3.5"));
        backbone->setCurrentIndex(backbone->findData(QStringLiteral("llava-onevision")));
        QCOMPARE(sampling->text(), QStringLiteral("uniform:32"));
        QVERIFY(grid->isEnabled());
        // A sampling the user chose stays.
        sampling->setText(QStringLiteral("uniform:8"));
        backbone->setCurrentIndex(backbone->findData(QStringLiteral("qwen3.5")));
        QCOMPARE(sampling->text(), QStringLiteral("uniform:8"));
    }

    void aQwenModelFolderIsItsBackbone() {
        const std::string dir = once::test::tempDir() + "/qwen";
        std::filesystem::create_directories(dir);
        once::writeFileAtomically(dir + "/config.json", R"({
            "model_type": "qwen3_5", "architectures": ["Qwen3_5ForConditionalGeneration"],
            "image_token_id": 600, "video_token_id": 601, "vision_start_token_id": 602,
            "vision_end_token_id": 603,
            "text_config": {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 4,
                            "vocab_size": 640},
            "vision_config": {"depth": 2, "hidden_size": 64, "intermediate_size": 96,
                              "out_hidden_size": 64}})");
        once::writeFileAtomically(dir + "/tokenizer.json", "{}");
        once::SafetensorsWriter w;
        const float zero = 0;
        w.add("lm_head.weight", once::DType::F32, {1}, &zero, sizeof zero);
        w.write(dir + "/model.safetensors");
        const ModelFolder m = ModelFolder::inspect(QString::fromStdString(dir));
        QCOMPARE(m.backbone, QStringLiteral("qwen3.5"));
        // No video processor settings in the folder: Qwen3VLVideoProcessor's class defaults,
        // as transformers samples it (2 FPS, 4 to 768 frames); the folder's own when present.
        QCOMPARE(m.samplingDefault, QStringLiteral("fps:2:4:768"));
        once::writeFileAtomically(dir + "/video_preprocessor_config.json",
                                  R"({"fps": 1, "min_frames": 2, "max_frames": 64})");
        QCOMPARE(ModelFolder::inspect(QString::fromStdString(dir)).samplingDefault,
                 QStringLiteral("fps:1:2:64"));
        QCOMPARE(m.llm.hidden, std::int64_t(64));
        QCOMPARE(m.llm.layers, std::int64_t(4));
        QCOMPARE(m.llm.linearLayers, std::int64_t(3));  // every 4th layer is full attention
        QVERIFY(m.llm.gatedQuery);
        // A folder of no registered backbone is refused, naming its model type.
        once::writeFileAtomically(dir + "/config.json", R"({"model_type": "internvl_chat"})");
        try {
            ModelFolder::inspect(QString::fromStdString(dir));
            QFAIL("an unknown model type was accepted");
        } catch (const once::OnceError& e) {
            QVERIFY2(QString(e.what()).contains("internvl_chat"), e.what());
        }
    }

    void aQwenVideoIsDrawnByTemporalPairs() {
        // Three frames (0, 100, 200 grey) → two feature frames (the last pair padded with its
        // frame, as the encoder does), a 2 × 2 merged grid.
        VideoData v;
        v.features = at::zeros({2, 4, 8});
        v.gridH = v.gridW = 2;
        v.extra["temporal_patch_size"] = "2";
        at::Tensor rgb = at::zeros({3, 8, 8, 3}, at::kByte);
        rgb[1].fill_(100);
        rgb[2].fill_(200);
        attachFrames(v, rgb);
        QCOMPARE(v.frames.size(), qsizetype(2));
        QCOMPARE(qGray(v.frames[0].pixel(0, 0)), 0);  // the pair's first frame
        QCOMPARE(qGray(v.frames[1].pixel(0, 0)), 200);
        QCOMPARE(v.patchColours.size(), std::size_t(8));
        QCOMPARE(qRed(v.patchColours[0]), 50);   // mean of frames 0 and 1
        QCOMPARE(qRed(v.patchColours[4]), 200);  // frame 2 and its repeat
        // One feature frame per frame (LLaVA): the frames as they are.
        VideoData l;
        l.features = at::zeros({3, 4, 8});
        l.gridH = l.gridW = 2;
        attachFrames(l, rgb);
        QCOMPARE(l.frames.size(), qsizetype(3));
        QCOMPARE(qRed(l.patchColours[4]), 100);
    }
};

QTEST_MAIN(TestQwen3_5Studio)
#include "test_qwen3_5_studio.moc"
