#pragma once
// Every Stage-A and Stage-B option with the paper's defaults (taken from the core's own default
// configuration, so the two never disagree), in two group boxes. "Restore Defaults" resets them.
#include <QWidget>

#include "train/sketch_cache.h"
#include "train/stage_b.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace once::studio {

class TrainerOptionsForm : public QWidget {
    Q_OBJECT
  public:
    explicit TrainerOptionsForm(QWidget* parent = nullptr);

    once::SketchCacheOptions sketchOptions() const;
    once::FitConfig fitConfig() const;
    QString storeDtype() const;
    void setSketchOptions(const once::SketchCacheOptions& o);
    void setFitConfig(const once::FitConfig& c);

  public slots:
    void restoreDefaults();

  private:
    // Stage A
    QSpinBox* bins_;
    QDoubleSpinBox* tokensPerRep_;
    QSpinBox* mMin_;
    QSpinBox* mMax_;
    QSpinBox* sketchIterations_;
    QLineEdit* sketchSeed_;  // 64-bit seeds: more than a QSpinBox (int) holds
    QSpinBox* cap_;
    QSpinBox* shardRows_;
    QCheckBox* skipErrors_;
    // Stage B
    QSpinBox* codewords_;
    QComboBox* method_;
    QComboBox* weights_;
    QDoubleSpinBox* alpha_;
    QComboBox* init_;
    QSpinBox* candidates_;
    QSpinBox* initIterations_;
    QSpinBox* batch_;
    QDoubleSpinBox* epsilon_;
    QSpinBox* sinkhornIterations_;
    QDoubleSpinBox* lr_;
    QDoubleSpinBox* weightDecay_;
    QDoubleSpinBox* beta1_;
    QDoubleSpinBox* beta2_;
    QDoubleSpinBox* adamEps_;
    QDoubleSpinBox* gradClip_;
    QDoubleSpinBox* commitment_;
    QDoubleSpinBox* usage_;
    QDoubleSpinBox* tauStart_;
    QDoubleSpinBox* tauMin_;
    QDoubleSpinBox* tauDecay_;
    QSpinBox* epochs_;
    QSpinBox* patience_;
    QSpinBox* lloydIterations_;
    QLineEdit* fitSeed_;
    QComboBox* storeDtype_;
};

}  // namespace once::studio
