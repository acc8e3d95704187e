// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/pods_page.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/models/claims_model.h"
#include "ui/models/core_text.h"
#include "ui/models/diagnosis_text.h"
#include "ui/models/pod_group_text.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/replay_pods_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/time_text.h"
#include "ui/models/tone_colors.h"
#include "ui/widgets/column_widths.h"
#include "ui/widgets/table_empty_text.h"

namespace drasim::ui {

namespace {

/// What the table of pods and the tree of a run's pods share: sortable (input order until the user
/// sorts), one row selected at a time, alternating row colours.
template <class View> View* makeListView(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new View(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    return view;
}

EmptyTextTableView* makeTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = makeListView<EmptyTextTableView>(model, parent);
    view->verticalHeader()->setVisible(false);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

/// A run's pods with each PodGroup's members under its row (flat for manifests and runs without
/// groups: the branches are drawn only while a group is shown).
EmptyTextTreeView* makeTree(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = makeListView<EmptyTextTreeView>(model, parent);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true); // thousands of pods: rows are not measured one by one
    view->header()->setStretchLastSection(true);
    return view;
}

QSortFilterProxyModel* makeProxy(QAbstractItemModel* source, QObject* parent)
{
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setFilterKeyColumn(-1); // any column
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
    return proxy;
}

} // namespace

PodsPage::PodsPage(Document* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    m_job = new AllocationJob(this);
    m_pods = new PodsModel(this);
    m_claims = new ClaimsModel(this);
    m_replayPods = new ReplayPodsModel(this);
    m_podsProxy = makeProxy(m_pods, this);
    m_claimsProxy = makeProxy(m_claims, this);
    // A member that matches keeps its group's row; a group that matches keeps its members.
    m_podsProxy->setRecursiveFilteringEnabled(true);
    m_podsProxy->setAutoAcceptChildRows(true);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter pods and claims (name, namespace, node, status, message…)"));
    m_filter->setClearButtonEnabled(true);
    m_summary = new QLabel(this);
    m_version = new QComboBox(this);
    for (auto v :
        { api::KubernetesVersion::V1_35, api::KubernetesVersion::V1_36, api::KubernetesVersion::V1_37 })
        m_version->addItem(
            tr("Kubernetes %1").arg(QString::fromLatin1(api::kubernetesVersionName(v))), int(v));
    m_gates = new QLineEdit(this);
    m_gates->setPlaceholderText(tr("Feature gates: Name=true,Other=false"));
    m_gates->setClearButtonEnabled(true);
    m_gatesProblem = new QLabel(this);
    m_gatesProblem->setWordWrap(true);
    m_gatesProblem->setVisible(false);
    auto* top = new QHBoxLayout();
    top->addWidget(m_filter, 3);
    top->addWidget(m_summary);
    top->addWidget(m_version);
    top->addWidget(m_gates, 2);

    m_podsView = makeTree(m_podsProxy, this);
    m_claimsView = makeTable(m_claimsProxy, this);
    m_diagnosis = new QTextBrowser(this);
    m_diagnosis->setPlaceholderText(tr("Select a pending pod to see why it is pending."));

    auto* upper = new QSplitter(Qt::Horizontal, this);
    upper->addWidget(m_podsView);
    upper->addWidget(m_diagnosis);
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(m_claimsView);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_gatesProblem);
    layout->addWidget(split, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_podsProxy->setFilterFixedString(text);
        m_claimsProxy->setFilterFixedString(text);
        updateEmptyText();
    });
    connect(m_version, &QComboBox::activated, this, &PodsPage::applyVersion);
    connect(m_gates, &QLineEdit::editingFinished, this, &PodsPage::applyVersion);
    connect(m_document, &Document::manifestGatesChanged, this, &PodsPage::showVersion);
    connect(m_document, &Document::opened, this, [this]() {
        showVersion();
        m_pods->setPods({});
        m_claims->setClaims({});
        m_replayPods->clear();
        m_diagnosis->clear();
        setReplayMode(m_document->isScenario());
        m_diagnosis->setPlaceholderText(m_replayMode ? emptyHint() : QString()); // manifests: once scheduled
        updateEmptyText();
        if (m_replayMode) {
            m_summary->setText(tr("The run's pods appear once it is simulated (Timeline tab)."));
            return;
        }
        m_summary->setText(tr("Scheduling…"));
        m_job->schedule(m_document->objects(), m_document->featureGates());
    });
    connect(m_job, &AllocationJob::scheduled, this, &PodsPage::onScheduled);
    connect(m_job, &AllocationJob::explained, this, &PodsPage::onExplained);
    connect(m_job, &AllocationJob::explainedAt, this, &PodsPage::onExplainedAt);
    connect(m_podsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &PodsPage::onPodSelected);
    connect(m_podsView, &QTreeView::collapsed, this, [this](const QModelIndex& index) {
        m_closedGroups.insert(index.data(PodsModel::GroupKeyRole).toString());
    });
    connect(m_podsView, &QTreeView::expanded, this, [this](const QModelIndex& index) {
        m_closedGroups.remove(index.data(PodsModel::GroupKeyRole).toString());
    });
    connect(m_claimsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (current.isValid())
                Q_EMIT claimSelected(current.data(ClaimsModel::ClaimKeyRole).toString());
        });
}

QString PodsPage::emptyHint() const
{
    // What the empty pane is waiting for, in the words of the manifests opened (a scenario's run
    // has pods and pending ones at most times).
    if (m_replayMode)
        return tr("Select a pending pod to see why it is pending.");
    if (m_pods->rowCount() == 0)
        return tr("The input has no pods. Open manifests with Pod objects (and their claims) to see where "
                  "the scheduler places them and why a pod stays pending.");
    if (m_pods->pendingCount() == 0)
        return tr("Every pod is scheduled: nothing is pending, so there is nothing to explain.");
    return tr("Select a pending pod to see why it is pending.");
}

void PodsPage::showVersion()
{
    // A scenario's spec.kubernetesVersion and gates decide for its run: shown, not chosen here.
    const bool scenario = m_document->isScenario();
    const api::FeatureGates gates = scenario ? m_document->featureGates() : m_document->manifestGates();
    m_version->setCurrentIndex(m_version->findData(int(gates.version())));
    QStringList set;
    for (const auto& [name, on] : gates.overrides())
        set << QString::fromStdString(name) + (on ? QStringLiteral("=true") : QStringLiteral("=false"));
    m_gates->setText(set.join(QLatin1Char(',')));
    m_version->setEnabled(!scenario);
    m_gates->setReadOnly(scenario);
    const QString why = scenario
        ? tr("The scenario's own version and gates (spec.kubernetesVersion, spec.scheduler.featureGates) "
             "decide "
             "how its run is scheduled.")
        : tr("The Kubernetes version and feature gates the manifests are read and scheduled at, as drasim "
             "allocate --kubernetes-version and --feature-gates take them (PodGroups need "
             "GenericWorkload=true).");
    m_version->setToolTip(why);
    m_gates->setToolTip(why);
}

void PodsPage::applyVersion()
{
    if (m_document->isScenario())
        return;
    const QString error = m_document->setManifestGates(
        api::KubernetesVersion(m_version->currentData().toInt()), m_gates->text().trimmed());
    m_gatesProblem->setVisible(!error.isEmpty());
    m_gatesProblem->setText(error.isEmpty()
            ? QString()
            : tr("<span style='color:%1'>Feature gates not applied: %2</span>")
                  .arg(toneColor(Tone::Warning).name(), error.toHtmlEscaped()));
}

void PodsPage::onScheduled(std::shared_ptr<const AllocationOutcome> outcome)
{
    m_pods->setPods(outcome->pods, outcome->podGroups, m_document->objects()->nodes);
    m_claims->setClaims(outcome->claims);
    m_podsView->setRootIsDecorated(m_pods->groupCount() > 0);
    expandGroups();
    fitColumnsToSample(m_podsView); // thousands of pods: a sample, not every row
    fitColumnsToSample(m_claimsView);
    updateEmptyText();
    if (!outcome->ok) {
        m_summary->setText(tr("The cluster has errors: see Problems."));
        return;
    }
    const QString groups = m_pods->groupCount() == 0
        ? QString()
        : tr(" (%1)").arg(countOf(m_pods->groupCount(), tr("pod group"), tr("pod groups")));
    m_summary->setText(
        tr("%1%2, %3 pending; %4")
            .arg(countOf(m_pods->podCount(), tr("pod"), tr("pods")), groups,
                countText(m_pods->pendingCount()), countOf(m_claims->rowCount(), tr("claim"), tr("claims"))));
    m_diagnosis->setPlaceholderText(emptyHint());
    selectFirstPending();
}

void PodsPage::selectFirstPending()
{
    selectRow([](const QModelIndex& index) { return index.data(PodsModel::PendingRole).toBool(); });
}

bool PodsPage::selectRow(const std::function<bool(const QModelIndex&)>& matches)
{
    // Top-level rows in the order shown, each followed by its members (a PodGroup's).
    for (int r = 0; r < m_podsProxy->rowCount(); ++r) {
        const QModelIndex top = m_podsProxy->index(r, 0);
        QModelIndex found = matches(top) ? top : QModelIndex();
        for (int m = 0; !found.isValid() && m < m_podsProxy->rowCount(top); ++m)
            if (const QModelIndex member = m_podsProxy->index(m, 0, top); matches(member))
                found = member;
        if (found.isValid()) {
            m_podsView->setCurrentIndex(found.siblingAtColumn(PodsModel::NameColumn));
            m_podsView->scrollTo(found);
            return true;
        }
    }
    return false;
}

void PodsPage::expandGroups()
{
    for (int r = 0; r < m_podsProxy->rowCount(); ++r) {
        const QModelIndex top = m_podsProxy->index(r, 0);
        if (top.data(PodsModel::IsGroupRole).toBool()
            && !m_closedGroups.contains(top.data(PodsModel::GroupKeyRole).toString()))
            m_podsView->expand(top);
    }
}

void PodsPage::setTimeCursor(TimeCursor* cursor)
{
    m_cursor = cursor;
    connect(cursor, &TimeCursor::replayChanged, this, [this]() {
        showReplayState();
        if (m_replayMode)
            fitColumnsToSample(m_podsView); // once per run, not with every move of the time
    });
    connect(cursor, &TimeCursor::timeChanged, this, &PodsPage::showReplayState);
}

void PodsPage::setReplayMode(bool on)
{
    m_replayMode = on;
    m_podsProxy->setSourceModel(on ? static_cast<QAbstractItemModel*>(m_replayPods) : m_pods);
    m_claimsView->setVisible(!on); // a run's claims are shown by pod, in the Claims column
}

void PodsPage::showReplayState()
{
    if (!m_replayMode || !m_cursor)
        return;
    const QModelIndex current = m_podsView->currentIndex();
    const bool groupSelected = current.data(PodsModel::IsGroupRole).toBool();
    const QString selected
        = current.data(groupSelected ? PodsModel::GroupKeyRole : PodsModel::PodKeyRole).toString();
    if (!m_cursor->replay()) {
        m_replayPods->clear();
        updateEmptyText();
        return;
    }
    const ReplayState& state = m_cursor->state();
    m_replayPods->setState(state);
    m_podsView->setRootIsDecorated(m_replayPods->groupCount() > 0);
    if (m_replayPods->groupCount() > 0) // a trace's thousands of pods have none to open
        expandGroups();
    // Rows of this time may be wider than the ones the columns were fitted to (none, at the end).
    fitColumnsToSample(m_podsView, 40, true);
    updateEmptyText();
    m_summary->setText(tr("At %1: %2 running, %3 pending")
                           .arg(formatSimTime(state.time))
                           .arg(countOf(qint64(state.running.size()), tr("pod"), tr("pods")))
                           .arg(countText(qint64(state.pending.size()))));
    // The pod (or group) the user chose stays chosen (its account follows the time) while it exists.
    if (selected.isEmpty() || !(groupSelected ? selectGroup(selected) : selectPod(selected)))
        if (m_preferred.isEmpty() || !(selectGroup(m_preferred) || selectPod(m_preferred)))
            selectFirstPending();
}

void PodsPage::updateEmptyText()
{
    const QString filter = m_filter->text();
    const bool filtered = !filter.isEmpty();
    const QString noMatch = tr("No pod matches “%1”.").arg(filter);
    if (m_replayMode) {
        const bool hasRun = m_cursor && m_cursor->replay();
        m_podsView->setEmptyText(filtered && m_replayPods->rowCount() > 0 ? noMatch
                : hasRun                                                  ? emptyRunText(m_cursor->state())
                         : tr("The run's pods appear once the scenario is simulated."));
        return;
    }
    m_podsView->setEmptyText(filtered && m_pods->rowCount() > 0 ? noMatch : tr("The input has no pods."));
    m_claimsView->setEmptyText(filtered && m_claims->rowCount() > 0 ? tr("No claim matches “%1”.").arg(filter)
                                                                    : tr("The input has no ResourceClaims."));
}

bool PodsPage::selectPod(const QString& podKey)
{
    return selectRow([&podKey](const QModelIndex& index) {
        return index.data(PodsModel::PodKeyRole).toString() == podKey;
    });
}

bool PodsPage::selectGroup(const QString& groupKey)
{
    return selectRow([&groupKey](const QModelIndex& index) {
        return index.data(PodsModel::IsGroupRole).toBool()
            && index.data(PodsModel::GroupKeyRole).toString() == groupKey;
    });
}

bool PodsPage::selectClaim(const QString& claimKey)
{
    for (int r = 0; r < m_claimsProxy->rowCount(); ++r)
        if (m_claimsProxy->index(r, 0).data(ClaimsModel::ClaimKeyRole).toString() == claimKey) {
            m_claimsView->setCurrentIndex(m_claimsProxy->index(r, ClaimsModel::NameColumn));
            return true;
        }
    return false;
}

void PodsPage::onPodSelected()
{
    const QModelIndex current = m_podsView->currentIndex();
    announceGroup(current);
    if (!current.isValid()) {
        m_diagnosis->clear();
        return;
    }
    if (current.data(PodsModel::IsGroupRole).toBool()) {
        if (m_replayMode)
            showGroupRow(current);
        else
            showAllocatedGroupRow(current);
        return;
    }
    const QString key = current.data(PodsModel::PodKeyRole).toString();
    if (m_replayMode) {
        // What the recorded events say; the run is not scheduled again here.
        const auto replay = m_cursor ? m_cursor->replay() : nullptr;
        if (replay) {
            const ReplayState& state = m_cursor->state();
            m_recordedText = replayedPodInWords(*replay, state, key.toStdString());
            if (const auto group = state.podGroups.find(key.toStdString()); group != state.podGroups.end())
                m_recordedText += memberOfGroupInWords(state.groups.at(group->second), state);
            m_diagnosis->setHtml(m_recordedText);
        }
        Q_EMIT diagnosisShown(key);
        // The recorded words stay while the run is simulated again up to this time for the
        // per-node account (the same as `drasim explain --at`).
        if (replay && m_cursor->state().pending.count(key.toStdString()) && m_document->prepared()) {
            m_diagnosis->setHtml(m_recordedText
                + tr("<p><i>Working out, node by node, why %1 is pending at %2…</i></p>")
                      .arg(key.toHtmlEscaped(), formatSimTime(m_cursor->time())));
            m_job->explainAt(m_document->prepared(), runSeed(), m_cursor->time(), key);
        }
        // A running pod's claims are shown by pod: its first claim stands for them elsewhere.
        if (m_cursor)
            for (const auto& [claim, pod] : m_cursor->state().claimPods)
                if (pod == key.toStdString()) {
                    Q_EMIT claimSelected(QString::fromStdString(claim));
                    break;
                }
        return;
    }
    if (!current.data(PodsModel::PendingRole).toBool()) {
        const QString node = current.siblingAtColumn(PodsModel::NodeColumn).data().toString();
        m_diagnosis->setHtml(
            tr("<h3>Pod %1</h3><p>Not pending: %2.</p>")
                .arg(key.toHtmlEscaped(),
                    node.isEmpty() ? tr("it has finished")
                                   : tr("it runs on node <b>%1</b>").arg(node.toHtmlEscaped())));
        Q_EMIT diagnosisShown(key);
        return;
    }
    m_diagnosis->setHtml(tr("<p>Working out why %1 is pending…</p>").arg(key.toHtmlEscaped()));
    m_job->explain(m_document->objects(), m_document->featureGates(), key);
}

void PodsPage::announceGroup(const QModelIndex& current)
{
    const std::string key = current.data(PodsModel::GroupKeyRole).toString().toStdString();
    const ReplayState* state = !m_replayMode ? &m_pods->groupState()
        : m_cursor && m_cursor->replay()     ? &m_cursor->state()
                                             : nullptr;
    const auto group = state ? state->groups.find(key) : std::map<std::string, ReplayGroup>::const_iterator();
    if (key.empty() || !state || group == state->groups.end() || !placedAsUnit(group->second)) {
        Q_EMIT groupCleared();
        return;
    }
    QStringList nodes;
    for (const auto& member : group->second.members)
        if (const auto running = state->running.find(member); running != state->running.end())
            if (const QString node = QString::fromStdString(running->second); !nodes.contains(node))
                nodes << node;
    // A domain is the group's only while members of it are bound there.
    const QString domain = nodes.isEmpty() ? QString() : QString::fromStdString(group->second.domain);
    Q_EMIT groupSelected(QString::fromStdString(key), domain, nodes);
}

void PodsPage::showGroupRow(const QModelIndex& current)
{
    const QString key = current.data(PodsModel::GroupKeyRole).toString();
    const ReplayState* state = m_cursor && m_cursor->replay() ? &m_cursor->state() : nullptr;
    const auto group = state ? state->groups.find(key.toStdString())
                             : std::map<std::string, ReplayGroup>::const_iterator();
    if (!state || group == state->groups.end()) {
        m_diagnosis->clear();
        return;
    }
    m_recordedText = replayedGroupInWords(group->second, *state);
    m_diagnosis->setHtml(m_recordedText);
    Q_EMIT diagnosisShown(key);
    // The scheduler's own account of the group comes with the explanation of a pending member
    // (the same as `drasim explain --at` on it): the group's state decides before the pod's fit.
    const QString member = current.data(PodsModel::ExplainKeyRole).toString();
    if (member.isEmpty() || !m_document->prepared())
        return;
    m_diagnosis->setHtml(m_recordedText
        + tr("<p><i>Asking the scheduler, through the pending member %1, what the group waits for at "
             "%2…</i></p>")
              .arg(member.toHtmlEscaped(), formatSimTime(m_cursor->time())));
    m_job->explainAt(m_document->prepared(), runSeed(), m_cursor->time(), member);
}

void PodsPage::showAllocatedGroupRow(const QModelIndex& current)
{
    const QString key = current.data(PodsModel::GroupKeyRole).toString();
    const ReplayState& state = m_pods->groupState();
    const auto group = state.groups.find(key.toStdString());
    if (group == state.groups.end()) {
        m_diagnosis->clear();
        return;
    }
    m_recordedText = allocatedGroupInWords(group->second, state);
    m_diagnosis->setHtml(m_recordedText);
    Q_EMIT diagnosisShown(key);
    // The scheduler's own account of the group comes with the explanation of a pending member
    // (the same as `drasim explain` on it): the group's cycle decides before the pod's fit.
    const QString member = current.data(PodsModel::ExplainKeyRole).toString();
    if (member.isEmpty())
        return;
    m_diagnosis->setHtml(m_recordedText
        + tr("<p><i>Asking the scheduler, through the pending member %1, what the group waits for…</i></p>")
              .arg(member.toHtmlEscaped()));
    m_job->explain(m_document->objects(), m_document->featureGates(), member);
}

void PodsPage::onExplained(const QString& podKey, std::shared_ptr<const scheduler::PodDiagnosis> diagnosis)
{
    // A group's row asked through its first pending member: the answer joins the group's account.
    const QModelIndex current = m_podsView->currentIndex();
    const bool group = current.data(PodsModel::IsGroupRole).toBool()
        && current.data(PodsModel::ExplainKeyRole).toString() == podKey;
    if (!diagnosis) {
        m_diagnosis->setHtml(tr("<p>%1 could not be explained: the cluster has errors (see Problems).</p>")
                                 .arg(podKey.toHtmlEscaped()));
    } else if (group) {
        m_diagnosis->setHtml(m_recordedText + groupDiagnosisInWords(*diagnosis));
    } else {
        m_diagnosis->setHtml(diagnosisInWords(*diagnosis));
    }
    Q_EMIT diagnosisShown(podKey);
}

quint64 PodsPage::runSeed() const
{
    const auto prepared = m_document->prepared();
    return m_document->seedOverride().value_or(prepared ? prepared->seed : 0);
}

void PodsPage::onExplainedAt(
    const QString& podKey, qint64 at, std::shared_ptr<const sim::PodExplanationAt> answer)
{
    // An answer for a pod or a time the pane has left since it was asked is dropped.
    const QModelIndex current = m_podsView->currentIndex();
    if (!m_replayMode || !m_cursor || m_cursor->time() != at || !current.isValid()
        || current.data(PodsModel::ExplainKeyRole).toString() != podKey)
        return;
    const bool group = current.data(PodsModel::IsGroupRole).toBool();
    if (answer->diagnosis)
        m_diagnosis->setHtml(m_recordedText
            + (group ? groupDiagnosisInWords(*answer->diagnosis) : diagnosisInWords(*answer->diagnosis)));
    else
        m_diagnosis->setHtml(m_recordedText
            + tr("<p>%1 could not be explained at %2: %3</p>")
                  .arg(podKey.toHtmlEscaped(), formatSimTime(at),
                      QString::fromStdString(answer->problem).toHtmlEscaped()));
    Q_EMIT diagnosisAtShown(podKey, at);
}

} // namespace drasim::ui
