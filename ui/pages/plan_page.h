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
class PlanPoliciesModel;
class ProgressRow;

/// Runs a capacity study (a Study file) in the background with progress and Cancel, then shows
/// the frontier of cost against the main service level, the recommendation with its spread
/// across seeds, what to buy at each load growth, and every mix evaluated. Studies are recorded
/// in the run store like `drasim plan --db`. A study comparing scoring policies (spec.policies)
/// runs under each, as `drasim plan` does: a table compares each policy's cheapest mix per load,
/// and the rest of the page shows the policy chosen.
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
    /// Shows load level `index` (0 = today) in the chart, the recommendation, the mix table and the
    /// comparison of policies.
    void showLoad(int index);
    /// Shows scoring policy `index` of a study comparing policies (0 = the first) in the chart, the
    /// recommendation, the load growth and the tables, at the load shown.
    void showPolicy(int index);
    /// The policy shown (index into the study's policies); 0 for a study of one policy.
    int policyShown() const;

    QString studyPath() const { return m_studyPath; }
    PlanJob* job() const { return m_job; }
    PlanMixesModel* mixesModel() const { return m_mixes; }
    PlanLoadsModel* loadsModel() const { return m_loads; }
    PlanCandidatesModel* candidatesModel() const { return m_candidates; }
    /// The comparison of a study comparing scoring policies; empty otherwise.
    PlanPoliciesModel* policiesModel() const { return m_policies; }
    /// The comparison's table and title; hidden for a study of one policy.
    QWidget* policiesPanel() const { return m_policiesPanel; }
    FrontierChartView* frontierChart() const { return m_chart; }
    QString recommendationText() const;

Q_SIGNALS:
    void diagnosticsChanged(const std::vector<drasim::Diagnostic>& diagnostics);
    void statusMessage(const QString& text);
    /// A study finished with a result (or failed, or was cancelled): the page shows it.
    void resultShown();

private:
    void onFinished(std::shared_ptr<const PlanOutcome> outcome);
    /// The comparison of the policies with its title, hidden until a study comparing them ends.
    QWidget* createPoliciesPanel();
    /// Fills the comparison and the policy choice from `outcome` (hides them for one policy).
    void showPolicies(const PlanOutcome& outcome);
    /// The result shown in the page's models: the policy chosen's, or the study's only one.
    void showResult(std::shared_ptr<const planner::StudyResult> result, int load);
    void chooseStudy();
    void setRunning(bool running);
    void clearResult();

    QString m_storePath;
    QString m_studyPath;
    unsigned m_threads = 0;
    PlanJob* m_job = nullptr;
    std::shared_ptr<const planner::StudyResult> m_result; ///< the policy shown's
    std::shared_ptr<const planner::PolicyStudyResult> m_policyResult; ///< null for one policy
    PlanMixesModel* m_mixes = nullptr;
    PlanLoadsModel* m_loads = nullptr;
    PlanCandidatesModel* m_candidates = nullptr;
    PlanPoliciesModel* m_policies = nullptr;
    QWidget* m_policiesPanel = nullptr;
    QTableView* m_policiesView = nullptr;
    QLabel* m_policiesTitle = nullptr; ///< which load the comparison shows
    QComboBox* m_policyChoice = nullptr;
    QLabel* m_policyLabel = nullptr; ///< "Policy:" before the choice
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
