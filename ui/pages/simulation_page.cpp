// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/simulation_page.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "core/sim/sim_time.h"
#include "ui/charts/series_chart_view.h"
#include "ui/document/document.h"
#include "ui/jobs/outcome_delivery.h"
#include "ui/models/core_text.h"
#include "ui/models/run_series_model.h"
#include "ui/models/time_text.h"
#include "ui/models/workload_summary_model.h"
#include "ui/widgets/progress_row.h"

namespace drasim::ui {

SimulationPage::SimulationPage(Document* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_job = new SimulationJob(this);
    m_series = new RunSeriesModel(this);
    m_workloads = new WorkloadSummaryModel(this);

    m_row = new ProgressRow(tr("No scenario open. Open a Scenario file (File › Open) to simulate it."), this);
    m_title = m_row->title();
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1'000'000'000);
    m_seed->setPrefix(tr("seed "));
    m_seed->setSpecialValueText(tr("scenario seed"));
    m_seed->setToolTip(tr("0 uses the seed written in the scenario"));
    m_row->addControl(m_seed);
    m_run = m_row->runButton();
    m_cancel = m_row->cancelButton();

    auto* charts = new QWidget(this);
    auto* grid = new QGridLayout(charts);
    grid->setContentsMargins(0, 0, 0, 0);
    m_charts
        = { new SeriesChartView(tr("Pods"), QStringLiteral("pods."), tr("pods"), false, m_series, charts),
              new SeriesChartView(tr("Device utilisation by model"), QStringLiteral("utilization.model/"),
                  tr("allocated"), true, m_series, charts),
              new SeriesChartView(tr("Pending pods by reason"), QStringLiteral("unschedulable.reason/"),
                  tr("pods"), false, m_series, charts),
              new SeriesChartView(tr("Device utilisation by node pool"), QStringLiteral("utilization.pool/"),
                  tr("allocated"), true, m_series, charts),
              // Utilisation is of the devices up: beside it, how many are up (failures, added pools).
              new SeriesChartView(
                  tr("Nodes up by pool"), QStringLiteral("nodes.up/"), tr("nodes"), false, m_series, charts),
              new SeriesChartView(tr("Devices up by model"), QStringLiteral("devices.up/"), tr("devices"),
                  false, m_series, charts) };
    m_charts[0]->setExcluded({ QStringLiteral("pods.pending.longest_s") });
    m_charts[2]->setEmptyText(tr("Nothing pending"));
    // Gang jobs (PodGroups with a gang policy, 1.35's Permit gangs): how many have not started
    // and the devices their started members hold meanwhile, the rate whose integral is the run's
    // "device-hours held idle by partly started gangs". The simulator samples these only once a
    // gang has arrived, so the charts are hidden until the first such series comes.
    m_gangCharts = { new SeriesChartView(tr("Gangs not started"), QStringLiteral("gangs.not_started"),
                         tr("gangs"), false, m_series, charts),
        new SeriesChartView(tr("Devices held by partly started gangs"), QStringLiteral("gangs.idle_devices"),
            tr("devices"), false, m_series, charts) };
    m_charts += m_gangCharts;
    for (int i = 0; i < m_charts.size(); ++i)
        grid->addWidget(m_charts[i], i / 2, i % 2);
    showGangCharts(false);
    connect(m_series, &RunSeriesModel::seriesAdded, this, [this](const QString& name) {
        if (name.startsWith(QStringLiteral("gangs.")))
            showGangCharts(true);
    });
    connect(m_series, &QAbstractItemModel::modelReset, this, [this]() { showGangCharts(false); });
    // Three rows of charts keep a readable height in a small window: they scroll instead.
    auto* chartScroll = new QScrollArea(this);
    chartScroll->setWidget(charts);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_workloadView = new QTableView(this);
    m_workloadView->setModel(m_workloads);
    m_workloadView->verticalHeader()->setVisible(false);
    m_workloadView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_workloadView->horizontalHeader()->setStretchLastSection(true);
    // Room for four workloads without scrolling (the examples have up to four).
    m_workloadView->setMinimumHeight(m_workloadView->horizontalHeader()->sizeHint().height()
        + 4 * m_workloadView->verticalHeader()->defaultSectionSize() + 2 * m_workloadView->frameWidth());
    m_totals = new QLabel(this);
    m_totals->setWordWrap(true);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_totals);
    bottomLayout->addWidget(m_workloadView, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(chartScroll);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_row);
    layout->addWidget(splitter, 1);

    connect(m_run, &QPushButton::clicked, this, &SimulationPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &SimulationPage::cancel);
    connect(m_job, &SimulationJob::progressChanged, m_row, &ProgressRow::setFraction);
    connect(m_job, &SimulationJob::samplesAvailable, this,
        [this](std::shared_ptr<const SampleBatch> batch) { m_series->append(*batch); });
    connect(m_job, &SimulationJob::finished, this, &SimulationPage::onFinished);
    connect(m_job, &SimulationJob::conditionsReady, this, &SimulationPage::markEvents);
    connect(m_document, &Document::opened, this, &SimulationPage::onDocumentOpened);
    connect(m_seed, &QSpinBox::valueChanged, this, [this](int value) {
        m_document->setSeedOverride(value == 0 ? std::nullopt : std::optional<quint64>(quint64(value)));
    });
    connect(m_document, &Document::seedOverrideChanged, this, [this]() {
        const QSignalBlocker block(m_seed);
        m_seed->setValue(int(m_document->seedOverride().value_or(0)));
    });
    setRunning(false);
}

void SimulationPage::onDocumentOpened()
{
    cancel();
    m_series->clear();
    m_workloads->setWorkloads({});
    m_totals->clear();
    m_row->setFraction(0);
    if (m_document->isScenario()) {
        const QString file = m_document->paths().value(0);
        // The scenario's own name: every example's file is scenario.yaml.
        const auto prepared = m_document->prepared();
        m_title->setText(prepared && !prepared->name.empty()
                ? tr("Scenario: %1").arg(QString::fromStdString(prepared->name))
                : prepared ? tr("Scenario: %1").arg(QFileInfo(file).fileName())
                           : tr("Scenario %1 has errors: see Problems.").arg(QFileInfo(file).fileName()));
        m_title->setToolTip(file);
    } else {
        m_title->setText(tr("No scenario open. Open a Scenario file (File › Open) to simulate it."));
        m_title->setToolTip(QString());
    }
    setRunning(false);
}

QString SimulationPage::title() const
{
    return m_title->text();
}

void SimulationPage::showGangCharts(bool shown)
{
    for (auto* chart : m_gangCharts)
        chart->setVisible(shown);
}

void SimulationPage::markEvents(std::shared_ptr<const sim::NodeConditions> conditions)
{
    QList<SeriesChartView::EventMark> marks;
    if (conditions)
        for (const auto& e : conditions->events())
            marks << SeriesChartView::EventMark { sim::toSeconds(e.time) / 3600.0,
                QString::fromStdString(e.kind), QString::fromStdString(e.subject) };
    for (auto* chart : m_charts)
        chart->setEventMarks(marks);
}

void SimulationPage::run()
{
    const auto prepared = m_document->prepared();
    if (!prepared)
        return;
    m_series->clear();
    markEvents(nullptr);
    for (auto* chart : m_charts)
        chart->setTimeSpan(sim::toSeconds(prepared->duration) / 3600.0);
    m_workloads->setWorkloads({});
    m_totals->clear();
    m_row->setFraction(0);
    setRunning(true);
    Q_EMIT statusMessage(tr("Simulating %1…").arg(QString::fromStdString(prepared->name)));
    const QStringList paths = m_document->paths();
    const QString source = m_document->isScenario() && !paths.isEmpty() ? paths.first() : QString();
    m_job->start(prepared, m_storePath, m_document->seedOverride(), source);
}

void SimulationPage::cancel()
{
    if (m_job->isRunning())
        m_job->cancel();
}

void SimulationPage::setRunning(bool running)
{
    m_run->setEnabled(!running && m_document->prepared() != nullptr);
    m_cancel->setEnabled(running);
    m_seed->setEnabled(!running);
}

void SimulationPage::onFinished(std::shared_ptr<const SimulationOutcome> outcome)
{
    setRunning(false);
    Q_EMIT diagnosticsChanged(
        withStoreWarning(outcome->diagnostics, "run history not saved", outcome->storeError));
    if (!outcome->summary) {
        m_totals->setText(tr("<b>The scenario could not be simulated.</b> See Problems for every error."));
        Q_EMIT statusMessage(tr("Scenario has errors"));
        return;
    }
    const auto& s = *outcome->summary;
    if (!outcome->cancelled)
        m_row->setFraction(1.0); // a cancelled run keeps the bar where it stopped
    m_workloads->setWorkloads(s.workloads);
    m_totals->setText(tr("%1 <b>%2</b> pods created, %3 scheduled, %4 pending at the end (peak %5). "
                         "Wait p95 <b>%6</b> over every pod created. Cost <b>$%7</b>.%8")
                          .arg(outcome->cancelled ? tr("Cancelled.") : tr("Finished."))
                          .arg(countText(qint64(s.podsCreated)))
                          .arg(countText(qint64(s.podsScheduled)))
                          .arg(countText(qint64(s.podsPendingAtEnd)))
                          .arg(countText(qint64(s.peakPendingPods)))
                          .arg(formatSeconds(s.waitSeconds.p95, s.waitSeconds.atLeast.p95))
                          .arg(QString::number(s.costUsd, 'f', 2))
                          .arg(outcome->runId ? tr(" Recorded as run #%1.").arg(outcome->runId) : QString()));
    Q_EMIT statusMessage(outcome->cancelled ? tr("Simulation cancelled") : tr("Simulation finished"));
}

} // namespace drasim::ui
