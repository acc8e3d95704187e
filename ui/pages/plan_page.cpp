// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/plan_page.h"

#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

#include "core/scheduler/scoring_profile.h"
#include "ui/charts/frontier_chart_view.h"
#include "ui/jobs/outcome_delivery.h"
#include "ui/models/core_text.h"
#include "ui/models/plan_candidates_model.h"
#include "ui/models/plan_models.h"
#include "ui/models/plan_policies_model.h"
#include "ui/widgets/progress_row.h"

namespace drasim::ui {

namespace {

QTableView* table(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->verticalHeader()->setVisible(false);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setWordWrap(false);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

/// As high as the table's rows (and no higher), so the recommendation above it gets the room a
/// few load levels leave.
void fitHeightToRows(QTableView* view)
{
    int height = view->horizontalHeader()->height() + 2 * view->frameWidth();
    for (int row = 0; row < view->model()->rowCount(); ++row)
        height += view->rowHeight(row);
    if (view->horizontalScrollBar()->isVisible())
        height += view->horizontalScrollBar()->height();
    view->setMaximumHeight(std::max(height, view->horizontalHeader()->height() * 3));
}

} // namespace

PlanPage::PlanPage(QWidget* parent)
    : QWidget(parent)
{
    m_job = new PlanJob(this);
    m_mixes = new PlanMixesModel(this);
    m_loads = new PlanLoadsModel(this);
    m_candidates = new PlanCandidatesModel(this);
    m_policies = new PlanPoliciesModel(this);

    m_row = new ProgressRow(tr("No study open. Open a Study file to find the cheapest hardware that meets "
                               "its service levels."),
        this);
    m_title = m_row->title();
    m_title->setWordWrap(true);
    m_open = new QPushButton(tr("Open Study…"), this);
    m_row->addControl(m_open);
    m_run = m_row->runButton();
    m_cancel = m_row->cancelButton();

    m_chart = new FrontierChartView(m_mixes, this);
    m_loadChoice = new QComboBox(this);
    m_loadChoice->setToolTip(tr("The load level the chart, the recommendation and the mix table show"));
    m_policyChoice = new QComboBox(this);
    m_policyChoice->setToolTip(
        tr("The scoring policy whose study the chart, the recommendation and the tables show"));
    m_recommendation = new QLabel(this);
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextFormat(Qt::RichText);
    m_recommendation->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_recommendation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals = new QLabel(this);
    m_totals->setWordWrap(true);
    m_loadsView = table(m_loads, this);
    m_loadsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_candidatesView = table(m_candidates, this);
    m_candidatesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    auto* loadRow = new QHBoxLayout();
    m_policyLabel = new QLabel(tr("Policy:"), side);
    loadRow->addWidget(m_policyLabel);
    loadRow->addWidget(m_policyChoice, 1);
    loadRow->addWidget(new QLabel(tr("Show:"), side));
    loadRow->addWidget(m_loadChoice, 1);
    m_policyLabel->hide(); // until a study comparing policies has run
    m_policyChoice->hide();
    sideLayout->addLayout(loadRow);
    // The recommendation with its reasons may be longer than the pane: it scrolls.
    auto* recommendationScroll = new QScrollArea(side);
    recommendationScroll->setWidget(m_recommendation);
    recommendationScroll->setWidgetResizable(true);
    recommendationScroll->setFrameShape(QFrame::NoFrame);
    sideLayout->addWidget(recommendationScroll, 3);
    sideLayout->addWidget(new QLabel(tr("<b>What to buy as the load grows</b>"), side));
    sideLayout->addWidget(m_loadsView, 2);
    sideLayout->addWidget(m_totals);

    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(m_chart);
    top->addWidget(side);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);

    m_mixesView = table(m_mixes, this);
    m_mixesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    // Every mix, and the hardware they are made of (price, power and rack slots per candidate).
    m_bottomTabs = new QTabWidget(this);
    m_bottomTabs->addTab(m_mixesView, tr("Mixes evaluated"));
    m_bottomTabs->addTab(m_candidatesView, tr("Candidates"));
    split->addWidget(m_bottomTabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_row);
    // Above the splitter, not in it: the comparison takes its rows' height, the panes share the rest.
    layout->addWidget(createPoliciesPanel());
    layout->addWidget(split, 1);

    connect(m_open, &QPushButton::clicked, this, &PlanPage::chooseStudy);
    connect(m_run, &QPushButton::clicked, this, &PlanPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &PlanPage::cancel);
    connect(m_loadChoice, &QComboBox::currentIndexChanged, this, &PlanPage::showLoad);
    connect(m_policyChoice, &QComboBox::currentIndexChanged, this, &PlanPage::showPolicy);
    connect(m_job, &PlanJob::progressChanged, this, [this](double f, const QString& stage) {
        m_row->setFraction(f);
        m_row->setStage(stage);
    });
    connect(m_job, &PlanJob::finished, this, &PlanPage::onFinished);
    setRunning(false);
}

QWidget* PlanPage::createPoliciesPanel()
{
    m_policiesPanel = new QWidget(this);
    auto* layout = new QVBoxLayout(m_policiesPanel);
    layout->setContentsMargins(0, 0, 0, 0);
    // One line: a wrapped label asks its layout for the height of several.
    m_policiesTitle = new QLabel(m_policiesPanel);
    m_policiesTitle->setToolTip(
        tr("Choose a row to show that policy's study: its frontier, recommendation and "
           "tables below."));
    layout->addWidget(m_policiesTitle);
    m_policiesView = table(m_policies, m_policiesPanel);
    m_policiesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_policiesView->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_policiesView);
    // A row is a policy: choosing it shows that policy's study.
    connect(m_policiesView, &QTableView::clicked, this,
        [this](const QModelIndex& index) { showPolicy(index.row()); });
    m_policiesPanel->hide();
    return m_policiesPanel;
}

void PlanPage::chooseStudy()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open a Study"), QFileInfo(m_studyPath).path(), tr("Study (*.yaml *.yml);;All files (*)"));
    if (!file.isEmpty())
        openStudy(file);
}

void PlanPage::openStudy(const QString& path)
{
    m_studyPath = path;
    const QFileInfo file(path);
    m_title->setText(tr("Study: %1/%2").arg(file.dir().dirName(), file.fileName()));
    m_title->setToolTip(path);
    run();
}

void PlanPage::clearResult()
{
    m_result.reset();
    m_policyResult.reset();
    m_policies->setResult(nullptr);
    m_policiesPanel->hide();
    {
        const QSignalBlocker block(m_policyChoice);
        m_policyChoice->clear();
    }
    m_policyChoice->hide();
    m_policyLabel->hide();
    m_mixes->setResult(nullptr);
    m_loads->setResult(nullptr);
    m_candidates->setResult(nullptr);
    {
        const QSignalBlocker block(m_loadChoice);
        m_loadChoice->clear();
    }
    m_recommendation->clear();
    m_totals->clear();
}

void PlanPage::run()
{
    if (m_studyPath.isEmpty())
        return;
    clearResult();
    m_row->setFraction(0);
    m_row->setStage(tr("starting"));
    setRunning(true);
    Q_EMIT statusMessage(tr("Planning %1…").arg(QFileInfo(m_studyPath).fileName()));
    m_job->start(m_studyPath, m_storePath, m_threads);
}

void PlanPage::cancel()
{
    if (m_job->isRunning()) {
        m_job->cancel();
        m_row->setStage(tr("cancelling"));
    }
}

void PlanPage::setRunning(bool running)
{
    m_run->setEnabled(!running && !m_studyPath.isEmpty());
    m_cancel->setEnabled(running);
    m_open->setEnabled(!running);
    m_loadChoice->setEnabled(!running && m_result);
    m_policyChoice->setEnabled(!running && m_policyResult);
}

void PlanPage::showLoad(int index)
{
    if (!m_result || index < 0 || size_t(index) >= m_result->loads.size())
        return;
    if (m_loadChoice->currentIndex() != index) {
        const QSignalBlocker block(m_loadChoice);
        m_loadChoice->setCurrentIndex(index);
    }
    m_mixes->setResult(m_result, index);
    m_candidates->setResult(m_result, index);
    // The owned column says something only when the study owns hardware.
    m_candidatesView->setColumnHidden(PlanCandidatesModel::OwnedColumn, !m_candidates->ownsAny());
    m_recommendation->setText(recommendationHtml(*m_result, index));
    m_loadsView->selectRow(index);
    if (m_policyResult) {
        m_policies->setResult(m_policyResult, index);
        m_policiesTitle->setText(tr("<b>Scoring policies compared at %1</b>: the cheapest mix meeting every "
                                    "service level under each")
                                     .arg(m_loadChoice->currentText().toHtmlEscaped()));
        m_policiesView->selectRow(policyShown());
    }
}

int PlanPage::policyShown() const
{
    return std::max(0, m_policyChoice->currentIndex());
}

void PlanPage::showPolicy(int index)
{
    if (!m_policyResult || index < 0 || size_t(index) >= m_policyResult->policies.size())
        return;
    if (m_policyChoice->currentIndex() != index) {
        const QSignalBlocker block(m_policyChoice);
        m_policyChoice->setCurrentIndex(index);
    }
    // The same load level under the other policy.
    showResult(std::shared_ptr<const planner::StudyResult>(
                   m_policyResult, &m_policyResult->policies[size_t(index)].result),
        std::max(0, m_loadChoice->currentIndex()));
}

void PlanPage::showResult(std::shared_ptr<const planner::StudyResult> result, int load)
{
    m_result = std::move(result);
    m_loads->setResult(m_result);
    fitHeightToRows(m_loadsView);
    {
        const QSignalBlocker block(m_loadChoice);
        m_loadChoice->clear();
        for (const auto& l : m_result->loads)
            m_loadChoice->addItem(QString::fromStdString(planner::loadLabel(l.load)));
    }
    m_loadChoice->setEnabled(true);
    showLoad(std::min(load, int(m_result->loads.size()) - 1));
}

void PlanPage::showPolicies(const PlanOutcome& outcome)
{
    m_policyResult = outcome.policies;
    m_policies->setResult(m_policyResult);
    const bool compared = bool(m_policyResult);
    {
        const QSignalBlocker block(m_policyChoice);
        m_policyChoice->clear();
        if (compared)
            for (const auto& p : m_policyResult->policies)
                m_policyChoice->addItem(QString::fromUtf8(scheduler::scoringPolicyName(p.policy)));
    }
    m_policyChoice->setVisible(compared);
    m_policyLabel->setVisible(compared);
    m_policyChoice->setEnabled(compared);
    m_policiesPanel->setVisible(compared);
    if (compared) {
        // Every policy's row in sight: the comparison is what such a study asks.
        fitHeightToRows(m_policiesView);
        m_policiesView->setMinimumHeight(m_policiesView->maximumHeight());
        // Exactly the title and the rows: the panel never takes room from the chart and tables.
        m_policiesPanel->layout()->invalidate();
        m_policiesPanel->setFixedHeight(m_policiesPanel->layout()->sizeHint().height());
    }
}

QString PlanPage::recommendationText() const
{
    QTextDocument doc;
    doc.setHtml(m_recommendation->text());
    return doc.toPlainText();
}

void PlanPage::onFinished(std::shared_ptr<const PlanOutcome> outcome)
{
    Q_EMIT diagnosticsChanged(
        withStoreWarning(outcome->diagnostics, "study not recorded", outcome->storeError));
    m_result = outcome->result;
    setRunning(false);
    if (!m_result) {
        m_row->setStage(outcome->cancelled ? tr("cancelled") : tr("failed"));
        m_recommendation->setText(outcome->cancelled
                ? tr("<p>Cancelled after %1. Run starts the study again.</p>")
                      .arg(countOf(qint64(outcome->simulationsRun), tr("simulation"), tr("simulations")))
                : tr("<p><b>The study could not run.</b> See Problems for every error.</p>"));
        Q_EMIT statusMessage(outcome->cancelled ? tr("Study cancelled") : tr("Study has errors"));
        Q_EMIT resultShown();
        return;
    }
    m_row->setFraction(1.0);
    m_row->setStage(tr("done"));
    showPolicies(*outcome);
    showResult(m_result, 0);
    int64_t evaluations = m_result->evaluations;
    QString recorded = outcome->studyId ? tr(" Recorded as study #%1.").arg(outcome->studyId) : QString();
    if (m_policyResult) {
        evaluations = 0;
        for (const auto& p : m_policyResult->policies)
            evaluations += p.result.evaluations;
        // As `drasim plan --db`, which records the study of one scoring policy.
        recorded = tr(" Under %1; not recorded in the run history, which keeps studies of one policy.")
                       .arg(countOf(qint64(m_policyResult->policies.size()), tr("scoring policy"),
                           tr("scoring policies")));
    }
    m_totals->setText(tr("%1 mixes evaluated, %2 simulations (%3 stopped early once a level was surely "
                         "missed) in %4 s.%5")
                          .arg(evaluations)
                          .arg(outcome->simulationsRun)
                          .arg(outcome->stoppedEarly)
                          .arg(QString::number(outcome->seconds, 'f', 1))
                          .arg(recorded));
    Q_EMIT statusMessage(tr("Study %1 finished").arg(QString::fromStdString(m_result->study)));
    Q_EMIT resultShown();
}

} // namespace drasim::ui
