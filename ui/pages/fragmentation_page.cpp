// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/fragmentation_page.h"

#include <cmath>
#include <string>

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include "core/fragstudy/scenario_input.h"
#include "core/gpushare/share_policies.h"
#include "ui/charts/frag_chart_view.h"
#include "ui/document/document.h"
#include "ui/models/core_text.h"
#include "ui/models/frag_curves.h"
#include "ui/widgets/progress_row.h"

namespace drasim::ui {

FragmentationPage::FragmentationPage(Document* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_job = new FragStudyJob(this);
    m_row = new ProgressRow(QString(), this);
    m_row->title()->setWordWrap(true);
    // The paper's protocol: ten seeds (42-51), as `drasim frag-study` defaults to.
    m_seeds = new QLineEdit(QStringLiteral("42-51"), this);
    m_seeds->setToolTip(tr("The seeds: one run per policy and seed (\"42-51\", \"42,45,50-52\")"));
    m_seeds->setMaximumWidth(120);
    m_threads = new QSpinBox(this);
    m_threads->setRange(1, 64);
    m_threads->setValue(2);
    m_threads->setToolTip(tr("Runs at once (the curves do not depend on it)"));
    m_row->addControl(new QLabel(tr("Seeds:"), this));
    m_row->addControl(m_seeds);
    m_row->addControl(new QLabel(tr("Threads:"), this));
    m_row->addControl(m_threads);
    // The policies to compare (all six of the paper by default); each checkbox says what it scores.
    auto* policyRow = new QHBoxLayout();
    policyRow->addWidget(new QLabel(tr("Policies:"), this));
    for (const auto& info : gpushare::sharePolicies()) {
        auto* box = new QCheckBox(QString::fromUtf8(info.name), this);
        box->setChecked(true);
        box->setToolTip(QString::fromUtf8(info.summary));
        policyRow->addWidget(box);
        m_policies.push_back(box);
    }
    policyRow->addStretch(1);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_allocated = new FragChartView(FragMeasure::Allocated, this);
    m_fragmentation = new FragChartView(FragMeasure::Fragmentation, this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_allocated);
    split->addWidget(m_fragmentation);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_row);
    layout->addLayout(policyRow);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_row->runButton(), &QPushButton::clicked, this, &FragmentationPage::run);
    connect(m_row->cancelButton(), &QPushButton::clicked, this, &FragmentationPage::cancel);
    connect(m_job, &FragStudyJob::progressChanged, this, [this](double f, const QString& stage) {
        m_row->setFraction(f);
        m_row->setStage(stage);
    });
    connect(m_job, &FragStudyJob::finished, this, &FragmentationPage::onFinished);
    connect(m_document, &Document::opened, this, &FragmentationPage::onOpened);
    onOpened();
}

bool FragmentationPage::canRun() const
{
    const session::Session* session = m_document->session();
    return session && session->scenario() && fragstudy::namesStudyFiles(*session->scenario());
}

void FragmentationPage::setSeeds(const QString& seeds)
{
    m_seeds->setText(seeds);
}

void FragmentationPage::setThreads(unsigned threads)
{
    m_threads->setValue(int(threads));
}

void FragmentationPage::setPolicies(const QStringList& names)
{
    for (QCheckBox* box : m_policies)
        box->setChecked(names.contains(box->text()));
}

QStringList FragmentationPage::policies() const
{
    QStringList names;
    for (const QCheckBox* box : m_policies)
        if (box->isChecked())
            names << box->text();
    return names;
}

QString FragmentationPage::summaryText() const
{
    return m_summary->text();
}

void FragmentationPage::onOpened()
{
    m_job->cancel();
    showResult(nullptr);
    if (canRun()) {
        // The scenario's own name, as the Simulation tab gives it (every example is scenario.yaml).
        const std::string& name = m_document->session()->scenario()->name;
        m_row->title()->setText(
            tr("Fragmentation study of %1: Run places the trace's pods with each chosen scoring "
               "policy, once per seed.")
                .arg(name.empty() ? QFileInfo(m_document->paths().value(0)).fileName()
                                  : QString::fromStdString(name)));
        m_summary->setText(tr("Press Run (it takes a few seconds per seed)."));
        setChartsEmptyText(tr("Run draws one line per policy here"));
    } else {
        m_row->title()->setText(
            tr("Open a scenario with a trace node list (spec.cluster.trace.nodes) and an "
               "alibaba-2023 trace workload, such as scenarios/plan/fragmentation, to compare "
               "how much of the GPUs each scoring policy allocates as the load grows."));
        m_summary->clear();
        setChartsEmptyText(tr("No trace scenario open: nothing to study"));
    }
    setRunning(false);
}

void FragmentationPage::run()
{
    if (!canRun() || m_job->isRunning())
        return;
    std::string error;
    auto seeds = fragstudy::parseSeedList(m_seeds->text().toStdString(), error);
    if (!seeds) {
        m_summary->setText(tr("Seeds: %1").arg(QString::fromStdString(error)));
        return;
    }
    fragstudy::StudyOptions options;
    for (size_t i = 0; i < m_policies.size() && i < gpushare::sharePolicies().size(); ++i)
        if (m_policies[i]->isChecked())
            options.policies.push_back(gpushare::sharePolicies()[i].policy);
    if (options.policies.empty()) {
        m_summary->setText(tr("Choose at least one policy to compare."));
        return;
    }
    options.seeds = *seeds;
    options.threads = unsigned(m_threads->value());
    showResult(nullptr);
    m_summary->setText(seeds->size() == 1 ? tr("Running one seed of each policy…")
                                          : tr("Running %1 seeds of each policy…").arg(seeds->size()));
    setChartsEmptyText(tr("Running…"));
    m_row->setFraction(0);
    m_row->setStage(tr("starting"));
    setRunning(true);
    Q_EMIT statusMessage(tr("Fragmentation study running…"));
    m_job->start(m_document->paths().value(0), options);
}

void FragmentationPage::cancel()
{
    if (m_job->isRunning()) {
        m_job->cancel();
        m_row->setStage(tr("cancelling"));
    }
}

void FragmentationPage::setRunning(bool running)
{
    m_row->runButton()->setEnabled(!running && canRun());
    m_row->cancelButton()->setEnabled(running);
    m_seeds->setEnabled(!running);
    m_threads->setEnabled(!running);
    for (QCheckBox* box : m_policies)
        box->setEnabled(!running);
}

void FragmentationPage::setChartsEmptyText(const QString& text)
{
    m_allocated->setEmptyText(text);
    m_fragmentation->setEmptyText(text);
}

void FragmentationPage::showResult(const fragstudy::StudyResult* result)
{
    m_allocated->setCurves(result ? fragCurves(*result, FragMeasure::Allocated) : std::vector<FragCurve> {});
    m_fragmentation->setCurves(
        result ? fragCurves(*result, FragMeasure::Fragmentation) : std::vector<FragCurve> {});
}

void FragmentationPage::onFinished(std::shared_ptr<const FragStudyOutcome> outcome)
{
    Q_EMIT diagnosticsChanged(outcome->diagnostics);
    setRunning(false);
    const fragstudy::StudyResult* result = outcome->result.get();
    if (!result) {
        m_row->setStage(outcome->cancelled ? tr("cancelled") : tr("failed"));
        m_summary->setText(outcome->cancelled ? tr("Cancelled. Run starts the study again.")
                                              : tr("The study could not run. See Problems for every error."));
        setChartsEmptyText(
            outcome->cancelled ? tr("Cancelled: nothing to draw") : tr("The study could not run"));
        Q_EMIT statusMessage(
            outcome->cancelled ? tr("Fragmentation study cancelled") : tr("Fragmentation study has errors"));
        Q_EMIT resultShown();
        return;
    }
    m_row->setFraction(1.0);
    m_row->setStage(tr("done"));
    showResult(result);
    m_summary->setText(
        tr("%1 nodes, %2 GPUs, %3 pods in the trace, inflated to %4 % of GPU capacity; %5 per "
           "policy, %6 arrivals per run on average; %7 s.")
            .arg(countText(qint64(result->nodes)), countText(result->gpus),
                countText(qint64(result->tracePods)))
            .arg(result->options.inflation.targetPercent.value_or(100))
            .arg(result->options.seeds.size() == 1 ? tr("one seed")
                                                   : tr("%1 seeds").arg(result->options.seeds.size()))
            .arg(countText(
                qint64(std::llround(result->policies.empty() ? 0.0 : result->policies.front().meanArrivals))))
            .arg(QString::number(outcome->seconds, 'f', 1)));
    Q_EMIT statusMessage(tr("Fragmentation study finished"));
    Q_EMIT resultShown();
}

} // namespace drasim::ui
