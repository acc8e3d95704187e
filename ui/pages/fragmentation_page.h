// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "core/common/diagnostic.h"
#include "ui/jobs/frag_study_job.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace drasim::ui {

class Document;
class FragChartView;
class ProgressRow;

/// The fragmentation study of "Beware of Fragmentation" (Weng et al., USENIX ATC '23) on the
/// open trace scenario, as `drasim frag-study` runs it: every GPU-sharing scoring policy with
/// every seed (the policies and seeds chosen on the page), in the background with progress and
/// Cancel, then the GPU allocated and the GPU fragmentation against the arrived GPU demand, one
/// line per policy with its quartile band.
/// The study takes seconds to a minute, so it runs when asked (Run), not on opening.
class FragmentationPage : public QWidget
{
    Q_OBJECT
public:
    explicit FragmentationPage(Document* document, QWidget* parent = nullptr);

    /// Whether the open document is a scenario naming a trace node list and an alibaba-2023 trace.
    bool canRun() const;
    void run();
    void cancel();
    /// "42-51", "42,45": the seeds of the next run.
    void setSeeds(const QString& seeds);
    void setThreads(unsigned threads);
    /// The policies of the next run, by their command-line names ("fgd", "random"); the others
    /// are unchecked.
    void setPolicies(const QStringList& names);
    /// The checked policies' names, in the paper's order.
    QStringList policies() const;

    FragStudyJob* job() const { return m_job; }
    FragChartView* allocatedChart() const { return m_allocated; }
    FragChartView* fragmentationChart() const { return m_fragmentation; }
    QString summaryText() const;

Q_SIGNALS:
    void diagnosticsChanged(const std::vector<drasim::Diagnostic>& diagnostics);
    void statusMessage(const QString& text);
    /// A study finished with curves (or failed, or was cancelled): the page shows it.
    void resultShown();

private:
    void onOpened();
    void onFinished(std::shared_ptr<const FragStudyOutcome> outcome);
    void setRunning(bool running);
    void showResult(const fragstudy::StudyResult* result);
    /// What both charts say while they have no curves (before a run, running, cancelled).
    void setChartsEmptyText(const QString& text);

    Document* m_document;
    FragStudyJob* m_job = nullptr;
    ProgressRow* m_row = nullptr;
    QLineEdit* m_seeds = nullptr;
    QSpinBox* m_threads = nullptr;
    std::vector<QCheckBox*> m_policies; ///< one per share policy, in SharePolicy order
    QLabel* m_summary = nullptr;
    FragChartView* m_allocated = nullptr;
    FragChartView* m_fragmentation = nullptr;
};

} // namespace drasim::ui
