// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QWidget>

#include "core/compare/comparison.h"
#include "ui/jobs/compare_job.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace drasim::ui {

class CompareChartView;
class KpiCompareModel;
class RunListModel;

/// Two runs of the run store side by side: pick a baseline (A) and another run (B); their KPIs
/// with differences (green where B is better, red where worse) and any series of both overlaid on
/// one time axis. The store is read in the background (CompareJob); the comparison itself is
/// core/compare's, the same as `drasim compare`.
class ComparePage : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePage(QWidget* parent = nullptr);

    void setStorePath(const QString& path);
    /// Reads the store's runs again (after a run finished). By default B is the newest finished
    /// run and A the one before it.
    void refreshRuns();
    /// Compares run `baseline` (A) with run `other` (B).
    void compareRuns(qint64 baseline, qint64 other);
    /// Compares the runs chosen in the A and B boxes (the Compare button).
    void compareSelected();
    /// Shows series `metric` ("pods.pending") in the chart.
    void showSeries(const QString& metric);

    CompareJob* job() const { return m_job; }
    RunListModel* runsModel() const { return m_runs; }
    KpiCompareModel* kpiModel() const { return m_kpis; }
    CompareChartView* chart() const { return m_chart; }

Q_SIGNALS:
    void runsListed();
    /// A comparison (or the reason it failed) is on screen.
    void comparisonShown();

private:
    void onRunsListed(std::shared_ptr<const RunList> runs, const QString& error);
    void onCompared(std::shared_ptr<const compare::Comparison> comparison, const QString& error);
    qint64 chosen(QComboBox* box) const;

    QString m_storePath;
    bool m_userChose = false; ///< A or B picked by hand: a refresh keeps them
    CompareJob* m_job = nullptr;
    RunListModel* m_runs = nullptr;
    KpiCompareModel* m_kpis = nullptr;
    std::shared_ptr<const compare::Comparison> m_comparison;
    CompareChartView* m_chart = nullptr;
    QComboBox* m_baseline = nullptr;
    QComboBox* m_other = nullptr;
    QComboBox* m_metric = nullptr;
    QPushButton* m_refresh = nullptr;
    QPushButton* m_compare = nullptr;
    QLabel* m_status = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace drasim::ui
