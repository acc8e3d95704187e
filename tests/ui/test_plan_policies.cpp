// SPDX-License-Identifier: Apache-2.0
// The Plan tab on a study comparing scoring policies (spec.policies), offscreen: it runs the
// search under each policy in the background, as `drasim plan` does; the comparison table says per
// load what `drasim plan` prints, word for word; choosing a policy shows its own frontier; a
// cancel midway leaves no partial comparison.
#include <cstdlib>
#include <memory>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QFile>
#include <QFont>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include "core/planner/planner.h"
#include "core/planner/policy_study.h"
#include "core/planner/study.h"
#include "core/planner/study_store.h"
#include "core/scheduler/scoring_profile.h"
#include "tests/ui/source_path.h"
#include "ui/charts/frontier_chart_view.h"
#include "ui/jobs/plan_job.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/plan_models.h"
#include "ui/models/plan_policies_model.h"
#include "ui/pages/plan_page.h"

namespace plan_policies_tests {

using drasim::ui::MainWindow;
using drasim::ui::PlanJob;
using drasim::ui::PlanOutcome;
using drasim::ui::PlanPoliciesModel;

QString policyStudy()
{
    return sourcePath("scenarios/plan/scoring-or-hardware/study.yaml");
}

std::shared_ptr<const PlanOutcome> waitPlanFinished(PlanJob* job)
{
    QSignalSpy spy(job, &PlanJob::finished);
    if (!spy.wait(300000))
        return nullptr;
    return spy.takeFirst().at(0).value<std::shared_ptr<const PlanOutcome>>();
}

/// The study under each policy, computed here through core as `drasim plan` computes it.
std::optional<drasim::planner::PolicyStudyResult> corePolicyStudy()
{
    drasim::Diagnostics diags;
    auto study = drasim::planner::loadStudy(policyStudy().toStdString(), diags);
    auto plan = study ? drasim::planner::preparePlan(*study, diags) : std::nullopt;
    if (!plan)
        return std::nullopt;
    drasim::planner::PlanOptions options;
    options.threads = 2;
    return drasim::planner::runPolicyPlans(*plan, options, diags);
}

/// What `drasim plan STUDY` prints.
QString drasimPlanText()
{
    QProcess plan;
    plan.start(QStringLiteral(DRASIM_CLI_PATH), { QStringLiteral("plan"), policyStudy() });
    if (!plan.waitForFinished(300000) || plan.exitCode() != 0)
        return {};
    return QString::fromUtf8(plan.readAllStandardOutput());
}

/// The comparison's line of `policy` under the heading `load` ("today's load:") of `drasim plan`.
QString comparisonLine(const QString& text, const QString& load, const QString& policy)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    const qsizetype heading = lines.indexOf(load + QLatin1Char(':'));
    for (qsizetype i = heading + 1;
         heading >= 0 && i < lines.size() && lines[i].startsWith(QStringLiteral("  ")); ++i)
        if (lines[i].startsWith(QStringLiteral("  ") + policy + QLatin1Char(' ')))
            return lines[i];
    return {};
}

QString cell(const QAbstractItemModel* model, int row, int column)
{
    return model->index(row, column).data().toString();
}

/// Every mix of the mixes table as the chart names it, in the table's order.
QStringList chartPoints(drasim::ui::PlanPage* page)
{
    QStringList points;
    for (int row = 0; row < page->mixesModel()->rowCount(); ++row)
        points << page->frontierChart()->pointText(row);
    return points;
}

TEST(PlanPolicies, ComparesEachPolicyAsDrasimPlanDoesAndShowsEachOnesFrontier)
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("runs.db"));
    MainWindow w;
    w.setRunStorePath(store);
    w.resize(1400, 900);
    w.show();
    auto* page = w.planPage();
    QAbstractItemModelTester tester(
        page->policiesModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_FALSE(page->policiesPanel()->isVisibleTo(page)) << "no comparison before a study";
    QSignalSpy progress(page->job(), &PlanJob::progressChanged);
    w.openPaths({ policyStudy() });
    auto outcome = waitPlanFinished(page->job());
    ASSERT_TRUE(outcome);
    ASSERT_TRUE(outcome->policies) << (outcome->diagnostics.empty() ? "" : outcome->diagnostics[0].format());
    ASSERT_EQ(outcome->policies->policies.size(), 3u);
    EXPECT_EQ(outcome->result.get(), &outcome->policies->policies[0].result);
    // Searched under every policy: no warning that only the scenario's own scoring was.
    EXPECT_TRUE(outcome->diagnostics.empty()) << outcome->diagnostics[0].format();
    EXPECT_EQ(w.diagnosticsModel()->warningCount(), 0);
    bool sawLastPolicy = false;
    for (const auto& report : progress)
        sawLastPolicy
            = sawLastPolicy || report.at(1).toString().startsWith(QStringLiteral("most-allocated: "));
    EXPECT_TRUE(sawLastPolicy) << "progress names each policy in turn";
    EXPECT_TRUE(page->policiesPanel()->isVisibleTo(page));

    // The same figures as core's for the same study, and as `drasim plan` prints them.
    const auto expected = corePolicyStudy();
    ASSERT_TRUE(expected);
    const QString cli = drasimPlanText();
    ASSERT_FALSE(cli.isEmpty());
    EXPECT_EQ(cli.toStdString(), drasim::planner::formatPolicyText(*expected));
    const auto* model = page->policiesModel();
    EXPECT_EQ(model->headerData(PlanPoliciesModel::VersusColumn, Qt::Horizontal).toString(),
        QStringLiteral("Versus default today"));
    const size_t loads = expected->policies[0].result.loads.size();
    ASSERT_EQ(loads, 2u); // today and +25%
    for (size_t load = 0; load < loads; ++load) {
        page->showLoad(int(load));
        ASSERT_EQ(model->load(), int(load));
        const auto rows = drasim::planner::policyComparison(*expected, load);
        ASSERT_EQ(model->rowCount(), int(rows.size()));
        const QString heading = QString::fromStdString(
            drasim::planner::loadLabel(expected->policies[0].result.loads[load].load));
        for (int r = 0; r < model->rowCount(); ++r) {
            const auto& row = rows[size_t(r)];
            const QString policy = cell(model, r, PlanPoliciesModel::PolicyColumn);
            EXPECT_EQ(policy.toStdString(), drasim::scheduler::scoringPolicyName(row.policy));
            EXPECT_EQ(cell(model, r, PlanPoliciesModel::MixColumn).toStdString(), row.mix);
            EXPECT_EQ(cell(model, r, PlanPoliciesModel::CostColumn).toStdString(), row.cost);
            EXPECT_EQ(model->index(r, PlanPoliciesModel::NodesColumn).data().toLongLong(), row.nodes);
            EXPECT_EQ(cell(model, r, PlanPoliciesModel::VersusColumn).toStdString(), row.versus);
            const QString line = comparisonLine(cli, heading, policy);
            ASSERT_FALSE(line.isEmpty()) << heading.toStdString() << " " << policy.toStdString() << "\n"
                                         << cli.toStdString();
            EXPECT_TRUE(line.contains(QStringLiteral("  %1  (%2)")
                                          .arg(cell(model, r, PlanPoliciesModel::MixColumn),
                                              cell(model, r, PlanPoliciesModel::CostColumn))))
                << line.toStdString();
            const QString versus = cell(model, r, PlanPoliciesModel::VersusColumn);
            if (versus.isEmpty()) {
                EXPECT_FALSE(line.contains(QStringLiteral("versus"))) << line.toStdString();
            } else {
                EXPECT_TRUE(line.endsWith(QStringLiteral("  versus default today: ") + versus))
                    << line.toStdString();
            }
        }
    }
    // This study's answer: bin packing needs 6 servers where the default scoring needs 17.
    page->showLoad(0);
    EXPECT_EQ(cell(model, 2, PlanPoliciesModel::MixColumn), QStringLiteral("a100=6"));
    EXPECT_EQ(cell(model, 2, PlanPoliciesModel::VersusColumn), QStringLiteral("-11 a100, -$1,650,000"));
    EXPECT_TRUE(model->index(2, 0).data(Qt::FontRole).value<QFont>().bold()) << "the cheapest";
    EXPECT_FALSE(model->index(0, 0).data(Qt::FontRole).value<QFont>().bold());

    // The first policy's study is shown; another policy switches the chart and the tables.
    EXPECT_EQ(page->policyShown(), 0);
    EXPECT_EQ(page->mixesModel()->result(), &outcome->policies->policies[0].result);
    const QStringList defaultPoints = chartPoints(page);
    page->showPolicy(2);
    EXPECT_EQ(page->policyShown(), 2);
    const auto& packed = outcome->policies->policies[2].result;
    EXPECT_EQ(page->mixesModel()->result(), &packed);
    EXPECT_EQ(page->mixesModel()->load(), 0);
    EXPECT_EQ(page->frontierChart()->metCount() + page->frontierChart()->missedCount(),
        int(packed.loads[0].mixes.size()));
    EXPECT_EQ(
        page->frontierChart()->frontierCount(), int(drasim::planner::loadReasons(packed, 0).frontier.size()));
    EXPECT_NE(chartPoints(page), defaultPoints);
    EXPECT_TRUE(page->recommendationText().contains(QStringLiteral("buy a100=6")))
        << page->recommendationText().toStdString();
    EXPECT_EQ(page->loadsModel()->index(0, drasim::ui::PlanLoadsModel::MixColumn).data().toString(),
        QStringLiteral("a100=6"));
    // The load shown stays when the policy changes, and the policy when the load does.
    page->showLoad(1);
    page->showPolicy(1);
    EXPECT_EQ(page->mixesModel()->load(), 1);
    EXPECT_EQ(page->mixesModel()->result(), &outcome->policies->policies[1].result);
    EXPECT_EQ(model->load(), 1);

    // Choosing a row of the comparison shows that policy.
    auto* view = page->policiesPanel()->findChild<QTableView*>();
    ASSERT_TRUE(view);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(model->index(2, 1)).center());
    EXPECT_EQ(page->policyShown(), 2);
    EXPECT_EQ(page->mixesModel()->result(), &packed);
    EXPECT_EQ(view->selectionModel()->selectedRows().value(0).row(), 2);

    // Not recorded: the run history keeps the study of one policy, as `drasim plan --db`.
    if (QFile::exists(store)) {
        EXPECT_TRUE(drasim::planner::StudyStore(store.toStdString()).studies().empty());
    }

    QCoreApplication::processEvents(); // the layouts asked for since the study finished
    if (const char* shots = std::getenv("DRASIM_SCREENSHOT_DIR"))
        w.grab().save(QString::fromUtf8(shots) + QStringLiteral("/plan-policies.png"));
}

TEST(PlanPolicies, CancelMidwayLeavesNoPartialComparisonAndTheNextRunCompletes)
{
    MainWindow w;
    w.setRunStorePath(QString());
    auto* page = w.planPage();
    page->setThreads(1);
    QSignalSpy progress(page->job(), &PlanJob::progressChanged);
    QSignalSpy finished(page->job(), &PlanJob::finished);
    page->openStudy(policyStudy());
    // Cancelled once the second policy's search has begun: the first is done, the rest is not.
    bool second = false;
    while (!second && finished.isEmpty() && progress.wait(60000))
        for (const auto& report : progress)
            second = second || report.at(1).toString().startsWith(QStringLiteral("least-allocated: "));
    ASSERT_TRUE(second);
    ASSERT_TRUE(finished.isEmpty()) << "the study ended before it could be cancelled";
    page->cancel();
    ASSERT_TRUE(finished.wait(300000));
    auto outcome = finished.takeFirst().at(0).value<std::shared_ptr<const PlanOutcome>>();
    ASSERT_TRUE(outcome);
    EXPECT_TRUE(outcome->cancelled);
    EXPECT_FALSE(outcome->result);
    EXPECT_FALSE(outcome->policies);
    EXPECT_GT(outcome->simulationsRun, 0);
    EXPECT_EQ(page->policiesModel()->rowCount(), 0);
    EXPECT_FALSE(page->policiesPanel()->isVisibleTo(page));
    EXPECT_EQ(page->mixesModel()->rowCount(), 0);
    EXPECT_EQ(page->policyShown(), 0);
    EXPECT_TRUE(page->recommendationText().contains(QStringLiteral("Cancelled")))
        << page->recommendationText().toStdString();
    EXPECT_FALSE(page->job()->isRunning());

    // The page keeps working: Run again compares every policy.
    page->setThreads(2);
    page->run();
    auto again = waitPlanFinished(page->job());
    ASSERT_TRUE(again && again->policies);
    EXPECT_EQ(page->policiesModel()->rowCount(), 3);
    EXPECT_TRUE(page->policiesPanel()->isVisibleTo(page));
}

} // namespace plan_policies_tests
