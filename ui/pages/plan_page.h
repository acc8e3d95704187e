// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "core/common/diagnostic.h"
#include "ui/jobs/plan_job.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace drasim::ui {

class FrontierChartView;
class PlanCandidatesModel;
class PlanLoadsModel;
class PlanMixesModel;
class ProgressRow;

/// Runs a capacity study (a Study file) in the background with progress and Cancel, then shows
/// the frontier of cost against the main service level, the recommendation with its spread
/// across seeds, what to buy at each load growth, and every mix evaluated. Studies are recorded
/// in the run store like `drasim plan --db`.
class PlanPage : public QWidget
{
    Q_OBJECT
public:
    explicit PlanPage(QWidget* parent = nullptr);

    /// Where studies are recorded (SQLite, the run store); empty disables recording.
    void setStorePath(const QString& path) { m_storePath = path; }
    /// Simulations at once (0 = every core).
    void setThreads(unsigned threads) { m_threads = threads; }
    /// Makes `path` the page's study and runs it.
    void openStudy(const QString& path);
    void run();
    void cancel();
    /// Shows load level `index` (0 = today) in the chart, the recommendation and the mix table.
    void showLoad(int index);

    QString studyPath() const { return m_studyPath; }
    PlanJob* job() const { return m_job; }
    PlanMixesModel* mixesModel() const { return m_mixes; }
    PlanLoadsModel* loadsModel() const { return m_loads; }
    PlanCandidatesModel* candidatesModel() const { return m_candidates; }
    FrontierChartView* frontierChart() const { return m_chart; }
    QString recommendationText() const;

Q_SIGNALS:
    void diagnosticsChanged(const std::vector<drasim::Diagnostic>& diagnostics);
    void statusMessage(const QString& text);
    /// A study finished with a result (or failed, or was cancelled): the page shows it.
    void resultShown();

private:
    void onFinished(std::shared_ptr<const PlanOutcome> outcome);
    void chooseStudy();
    void setRunning(bool running);
    void clearResult();

    QString m_storePath;
    QString m_studyPath;
    unsigned m_threads = 0;
    PlanJob* m_job = nullptr;
    std::shared_ptr<const planner::StudyResult> m_result;
    PlanMixesModel* m_mixes = nullptr;
    PlanLoadsModel* m_loads = nullptr;
    PlanCandidatesModel* m_candidates = nullptr;
    FrontierChartView* m_chart = nullptr;
    ProgressRow* m_row = nullptr;
    QLabel* m_title = nullptr; ///< the row's title
    QLabel* m_recommendation = nullptr;
    QLabel* m_totals = nullptr;
    QComboBox* m_loadChoice = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_run = nullptr; ///< the row's Run
    QPushButton* m_cancel = nullptr; ///< the row's Cancel
    QTableView* m_loadsView = nullptr;
    QTableView* m_candidatesView = nullptr;
    QTabWidget* m_bottomTabs = nullptr; ///< the mixes and the candidates
    QTableView* m_mixesView = nullptr;
};

} // namespace drasim::ui
