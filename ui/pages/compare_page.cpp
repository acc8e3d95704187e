// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/compare_page.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/charts/compare_chart_view.h"
#include "ui/models/compare_models.h"

namespace drasim::ui {

ComparePage::ComparePage(QWidget* parent)
    : QWidget(parent)
{
    m_job = new CompareJob(this);
    m_runs = new RunListModel(this);
    m_kpis = new KpiCompareModel(this);

    m_baseline = new QComboBox(this);
    m_baseline->setModel(m_runs);
    m_other = new QComboBox(this);
    m_other->setModel(m_runs);
    for (auto* box : { m_baseline, m_other }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(24);
    }
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_refresh->setToolTip(tr("Read the run history again"));
    m_compare = new QPushButton(tr("Compare"), this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);

    auto* pick = new QGridLayout();
    pick->addWidget(new QLabel(tr("A (baseline):"), this), 0, 0);
    pick->addWidget(m_baseline, 0, 1);
    pick->addWidget(new QLabel(tr("B:"), this), 0, 2);
    pick->addWidget(m_other, 0, 3);
    pick->addWidget(m_compare, 0, 4);
    pick->addWidget(m_refresh, 0, 5);
    pick->setColumnStretch(1, 1);
    pick->setColumnStretch(3, 1);

    m_table = new QTableView(this);
    m_table->setModel(m_kpis);
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Model and pool names make long KPI names: they elide (full name in the row's tooltip).
    m_table->horizontalHeader()->setSectionResizeMode(KpiCompareModel::NameColumn, QHeaderView::Interactive);
    m_table->setColumnWidth(
        KpiCompareModel::NameColumn, fontMetrics().horizontalAdvance(QLatin1Char('x')) * 24);
    m_table->setColumnHidden(KpiCompareModel::UnitColumn, true); // values carry their unit
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_metric = new QComboBox(this);
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_metric->setMinimumContentsLength(20);
    m_chart = new CompareChartView(this);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* metricRow = new QHBoxLayout();
    metricRow->addWidget(new QLabel(tr("Series:"), right));
    metricRow->addWidget(m_metric, 1);
    rightLayout->addLayout(metricRow);
    rightLayout->addWidget(m_chart, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(right);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 3);
    split->setSizes({ 700, 520 });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pick);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    for (auto* box : { m_baseline, m_other })
        connect(box, &QComboBox::activated, this, [this]() { m_userChose = true; });
    connect(m_refresh, &QPushButton::clicked, this, &ComparePage::refreshRuns);
    connect(m_compare, &QPushButton::clicked, this, &ComparePage::compareSelected);
    connect(m_metric, &QComboBox::currentTextChanged, this, &ComparePage::showSeries);
    connect(m_job, &CompareJob::runsListed, this, &ComparePage::onRunsListed);
    connect(m_job, &CompareJob::compared, this, &ComparePage::onCompared);
    m_status->setText(tr("Every simulation run is kept in the run history; choose two to compare."));
}

void ComparePage::setStorePath(const QString& path)
{
    m_storePath = path;
}

void ComparePage::refreshRuns()
{
    m_job->listRuns(m_storePath);
}

qint64 ComparePage::chosen(QComboBox* box) const
{
    return box->currentIndex() < 0 ? 0 : box->currentData(RunListModel::RunIdRole).toLongLong();
}

void ComparePage::onRunsListed(std::shared_ptr<const RunList> runs, const QString& error)
{
    const qint64 a = m_userChose ? chosen(m_baseline) : 0, b = m_userChose ? chosen(m_other) : 0;
    m_runs->setRuns(*runs);
    // Keep what the user chose when those runs are still there; otherwise the two newest finished.
    QList<int> finished;
    for (int row = 0; row < m_runs->rowCount(); ++row)
        if (m_runs->flags(m_runs->index(row)) & Qt::ItemIsEnabled)
            finished << row;
    const int rowB = b && m_runs->rowOf(b) >= 0 ? m_runs->rowOf(b) : finished.value(0, -1);
    const int rowA = a && m_runs->rowOf(a) >= 0 ? m_runs->rowOf(a) : finished.value(1, rowB);
    m_baseline->setCurrentIndex(rowA);
    m_other->setCurrentIndex(rowB);
    m_compare->setEnabled(finished.size() >= 1);
    if (!error.isEmpty())
        m_status->setText(tr("The run history cannot be read: %1").arg(error));
    else if (finished.isEmpty())
        m_status->setText(tr("No finished run yet: simulate a scenario first."));
    Q_EMIT runsListed();
}

void ComparePage::compareSelected()
{
    const qint64 a = chosen(m_baseline), b = chosen(m_other);
    if (a && b)
        compareRuns(a, b);
}

void ComparePage::compareRuns(qint64 baseline, qint64 other)
{
    m_status->setText(tr("Comparing run #%1 with run #%2…").arg(baseline).arg(other));
    m_job->compare(m_storePath, baseline, other);
}

void ComparePage::onCompared(std::shared_ptr<const compare::Comparison> comparison, const QString& error)
{
    m_comparison = comparison;
    m_kpis->setComparison(comparison);
    const QString previous = m_metric->currentText();
    {
        const QSignalBlocker block(m_metric);
        m_metric->clear();
        if (comparison)
            for (const auto& s : comparison->series)
                m_metric->addItem(QString::fromStdString(s.metric));
    }
    if (!comparison) {
        m_status->setText(tr("Cannot compare: %1").arg(error));
        m_chart->setSeries(nullptr, {});
        Q_EMIT comparisonShown();
        return;
    }
    QStringList names;
    for (const auto& run : comparison->runs)
        names << runLabel(run);
    m_status->setText(tr("A: %1    B: %2").arg(names.value(0), names.value(1)));
    const int keep = m_metric->findText(previous);
    const int pending = m_metric->findText(QStringLiteral("pods.pending"));
    m_metric->setCurrentIndex(keep >= 0 ? keep : pending >= 0 ? pending : 0);
    showSeries(m_metric->currentText());
    Q_EMIT comparisonShown();
}

void ComparePage::showSeries(const QString& metric)
{
    if (!m_comparison) {
        m_chart->setSeries(nullptr, {});
        return;
    }
    QStringList names;
    for (const auto& run : m_comparison->runs)
        names << runLabel(run);
    for (const auto& s : m_comparison->series)
        if (QString::fromStdString(s.metric) == metric) {
            m_chart->setSeries(&s, names);
            return;
        }
    m_chart->setSeries(nullptr, {});
}

} // namespace drasim::ui
