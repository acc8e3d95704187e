// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>

#include <QWidget>

#include "core/common/diagnostic.h"
#include "ui/jobs/simulation_job.h"

class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace drasim::ui {

class Document;
class ProgressRow;
class RunSeriesModel;
class SeriesChartView;
class WorkloadSummaryModel;

/// Runs the document's prepared scenario in the background and shows it live: pods, GPU
/// utilisation by model and unschedulable reasons over simulated time (and, once a gang job has
/// arrived, its gangs not started and the devices they hold idle), then per-workload waits and the
/// run's totals. The seed box edits the document (undoable).
class SimulationPage : public QWidget
{
    Q_OBJECT
public:
    explicit SimulationPage(Document* document, QWidget* parent = nullptr);
    /// Where runs are recorded (SQLite); empty disables recording.
    void setRunStorePath(const QString& path) { m_storePath = path; }
    void run();
    void cancel();

    SimulationJob* job() const { return m_job; }
    /// Every chart, the gang charts last (hidden while the run has no gang).
    const QList<SeriesChartView*>& charts() const { return m_charts; }
    /// "Gangs not started" and "Devices held by partly started gangs" (gangs.* series).
    const QList<SeriesChartView*>& gangCharts() const { return m_gangCharts; }
    QTableView* workloadView() const { return m_workloadView; }
    QString title() const;
    RunSeriesModel* seriesModel() const { return m_series; }
    WorkloadSummaryModel* workloadModel() const { return m_workloads; }

Q_SIGNALS:
    /// Problems of the scenario (or a note that the run store failed), for the Problems dock.
    void diagnosticsChanged(const std::vector<drasim::Diagnostic>& diagnostics);
    void statusMessage(const QString& text);

private:
    void onFinished(std::shared_ptr<const SimulationOutcome> outcome);
    void onDocumentOpened();
    /// Marks the scenario's injected events on every chart (none: clears the marks).
    void markEvents(std::shared_ptr<const sim::NodeConditions> conditions);
    void setRunning(bool running);
    void showGangCharts(bool shown);

    Document* m_document;
    QString m_storePath;
    SimulationJob* m_job = nullptr;
    RunSeriesModel* m_series = nullptr;
    WorkloadSummaryModel* m_workloads = nullptr;
    ProgressRow* m_row = nullptr;
    QLabel* m_title = nullptr; ///< the row's title
    QLabel* m_totals = nullptr;
    QSpinBox* m_seed = nullptr;
    QPushButton* m_run = nullptr; ///< the row's Run
    QPushButton* m_cancel = nullptr; ///< the row's Cancel
    QTableView* m_workloadView = nullptr;
    QList<SeriesChartView*> m_charts;
    QList<SeriesChartView*> m_gangCharts;
};

} // namespace drasim::ui
