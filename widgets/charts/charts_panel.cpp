#include "charts/charts_panel.h"

#include <ATen/ATen.h>

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include "charts/analysis_chart.h"
#include "charts/budget_latency_chart.h"
#include "charts/corpus_diagnostics.h"
#include "charts/residual_chart.h"
#include "charts/task_radar_chart.h"
#include "charts/usage_decile_chart.h"
#include "codebook/codebook.h"
#include "session/remote_connection.h"
#include "session/studio_session.h"
#include "util/error.h"
#include "util/exception_text.h"

namespace once::studio {
namespace {
std::vector<float> toFloats(const at::Tensor& t) {
    if (!t.defined()) {
        return {};
    }
    const at::Tensor c = t.to(at::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}
}  // namespace

ChartsPanel::ChartsPanel(StudioSession* session, QWidget* parent)
    : QWidget(parent), session_(session) {
    tabs_ = new QTabWidget(this);
    usage_ = new UsageDecileChart(this);
    residual_ = new ResidualChart(this);
    latency_ = new BudgetLatencyChart(this);
    radar_ = new TaskRadarChart(this);
    analysis_ = new AnalysisChart(this);
    tabs_->addTab(usage_, tr("Code usage"));
    tabs_->addTab(residual_, tr("Residuals"));
    tabs_->addTab(latency_, tr("Budget vs latency"));
    tabs_->addTab(radar_, tr("Per-task accuracy"));
    tabs_->addTab(analysis_, tr("Analyses"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);

    connect(session_, &StudioSession::assignmentChanged, this, &ChartsPanel::onAssignment);
    connect(session_, &StudioSession::resultChanged, this, &ChartsPanel::onResult);
    connect(session_, &StudioSession::codebookChanged, this, &ChartsPanel::onCodebook);
    connect(session_, &StudioSession::sweepChanged, this, &ChartsPanel::onSweep);
    connect(session_, &StudioSession::modelChanged, this, &ChartsPanel::onModel);
    connect(session_, &StudioSession::methodChanged, this, &ChartsPanel::updateMeasurable);
    connect(session_, &StudioSession::busyChanged, this, &ChartsPanel::updateMeasurable);
    connect(session_->remote(), &RemoteConnection::stateChanged, this,
            &ChartsPanel::updateMeasurable);
    // A sweep shows its progress and Cancel in the status bar; the chart's button is off while
    // it runs and a cancelled one is said so, the previous sweep kept (issue 16).
    connect(session_, &StudioSession::sweepingChanged, latency_, &BudgetLatencyChart::setMeasuring);
    connect(session_, &StudioSession::sweepCancelled, latency_, &BudgetLatencyChart::showCancelled);
    connect(latency_, &BudgetLatencyChart::measureRequested, session_,
            &StudioSession::runBudgetSweep);
    connect(radar_, &TaskRadarChart::openRequested, this, &ChartsPanel::openEvaluationResults);
    connect(analysis_, &AnalysisChart::openRequested, this, &ChartsPanel::openAnalysisResults);
    connect(latency_, &BudgetLatencyChart::openBenchRequested, this,
            &ChartsPanel::openBenchResults);
}

ChartWidget* ChartsPanel::currentChart() const {
    return qobject_cast<ChartWidget*>(tabs_->currentWidget());
}

void ChartsPanel::onAssignment() {
    const auto a = session_->assignment();
    if (!a) {
        usage_->setVideoCounts({});
        residual_->setNearestResiduals({});
    } else {
        const at::Tensor counts = a->counts.to(at::kLong).contiguous();
        usage_->setVideoCounts(
            {counts.data_ptr<std::int64_t>(), counts.data_ptr<std::int64_t>() + counts.numel()});
        // Residual to the nearest of all K codewords: 1 − the best cosine of step 1.
        residual_->setNearestResiduals(toFloats(1.0 - a->topScores.select(1, 0)));
    }
    updateMeasurable();
}

void ChartsPanel::onResult() {
    const auto r = session_->result();
    residual_->setBudgetResiduals(r ? toFloats(r->residual) : std::vector<float>{},
                                  r ? r->budget : 0);
}

void ChartsPanel::onCodebook() {
    CorpusDiagnostics corpus;
    if (const auto codebook = session_->codebook()) {
        corpus = CorpusDiagnostics::fromCodebook(*codebook);
    }
    usage_->setCorpusDeciles(corpus.decileShares);
    residual_->setCorpusPercentiles(corpus.residuals);
}

void ChartsPanel::onSweep() {
    latency_->setSweep(session_->sweep(), int(session_->video().layoutTokenCount()));
}

void ChartsPanel::onModel() {
    const auto& model = session_->model();
    latency_->setLlm(model ? model->llm : once::LlmShape::qwen2_7b(), model.has_value());
}

void ChartsPanel::updateMeasurable() {
    latency_->setCanMeasure(session_->canMeasureSweep());
}

bool ChartsPanel::loadResults(const std::function<void()>& load, QWidget* tab, QString* error) {
    try {
        load();
        tabs_->setCurrentWidget(tab);
        return true;
    } catch (const std::exception& e) {
        if (error) {
            *error = QString::fromStdString(once::userMessage(e));
        }
        return false;
    }
}

void ChartsPanel::openResults(const QString& title, const QString& filter, const QString& failTitle,
                              bool (ChartsPanel::*load)(const QString&, QString*)) {
    const QString path = QFileDialog::getOpenFileName(this, title, QString(), filter);
    if (path.isEmpty()) {
        return;
    }
    QString error;
    if (!(this->*load)(path, &error)) {
        // The engine's detail stays as the CLI prints it; the explanation is translated.
        QMessageBox::warning(
            this, failTitle,
            tr("Nothing was loaded from %1; the charts keep what they showed.\n\n%2")
                .arg(QFileInfo(path).fileName(), error));
    }
}

bool ChartsPanel::loadEvaluationResults(const QString& path, QString* error) {
    return loadResults([&] { radar_->setResults(once::TaskAccuracy::load(path.toStdString())); },
                       radar_, error);
}

void ChartsPanel::openEvaluationResults() {
    openResults(tr("Open Evaluation Results"),
                tr("Evaluation results (*.csv *.json);;All files (*)"),
                tr("Cannot open evaluation results"), &ChartsPanel::loadEvaluationResults);
}

bool ChartsPanel::loadAnalysisResults(const QString& path, QString* error) {
    return loadResults([&] { analysis_->setResults(AnalysisResults::load(path)); }, analysis_,
                       error);
}

void ChartsPanel::openAnalysisResults() {
    openResults(tr("Open Analysis Results"),
                tr("Evaluation or analysis tables (*.csv);;All files (*)"),
                tr("Cannot open analysis results"), &ChartsPanel::loadAnalysisResults);
}

bool ChartsPanel::loadBenchResults(const QString& path, QString* error) {
    return loadResults(
        [&] { latency_->setEfficiencyBench(once::loadEfficiencyBench(path.toStdString())); },
        latency_, error);
}

void ChartsPanel::openBenchResults() {
    openResults(tr("Open Bench Results"), tr("once bench results (*.json);;All files (*)"),
                tr("Cannot open bench results"), &ChartsPanel::loadBenchResults);
}

}  // namespace once::studio
