#pragma once
// Preferences: backbone, device (CUDA only when present), dtype, threads, frame sampling, patch
// pooling and the interface language. Validates the sampling rule before accepting.
#include <QDialog>

#include "session/pipeline_settings.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace once::studio {

class SettingsDialog : public QDialog {
    Q_OBJECT
  public:
    SettingsDialog(const PipelineSettings& pipeline, const QString& language,
                   QWidget* parent = nullptr);

    PipelineSettings pipeline() const;
    QString language() const;
    /// Whether this process can use a CUDA device.
    static bool cudaAvailable();

    void accept() override;
    QLineEdit* samplingEdit() const { return sampling_; }
    /// The message under the sampling field ("" while the rule is valid).
    QLabel* samplingErrorLabel() const { return samplingError_; }

  private:
    QComboBox* backbone_;
    QComboBox* device_;
    QComboBox* dtype_;
    QSpinBox* threads_;
    QLineEdit* sampling_;
    QComboBox* pooling_;
    QComboBox* language_;
    QLabel* samplingError_;
};

}  // namespace once::studio
