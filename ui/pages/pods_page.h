// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <memory>

#include <QSet>
#include <QWidget>

#include "core/scheduler/diagnosis.h"
#include "ui/jobs/allocation_job.h"
#include "ui/widgets/table_empty_text.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTextBrowser;

namespace drasim::ui {

class ClaimsModel;
class Document;
class PodsModel;
class ReplayPodsModel;
class TimeCursor;

/// Pods and claims of the document as the scheduler leaves them (placed or pending), filterable
/// and sortable. Selecting a pending pod shows why it is pending, node by node and request by
/// request, in plain words: the core's diagnosis (the same as `drasim explain`), worked out in
/// the background. For a scenario the pods are those of its run at the timeline's time (running
/// or pending, from the recorded events), and a pending pod shows what the scheduler said, then,
/// once worked out in the background, the diagnosis at that time (as `drasim explain --at`).
/// A PodGroup placed as a unit is one row with its members under it, for manifests (scheduled in
/// one group cycle, as `drasim allocate` does) as for a run; selecting it (or a member) says what
/// the group waits for, and the Topology tab outlines its placement domain. Manifests are read and
/// scheduled at the Kubernetes version chosen beside the filter (a scenario's is its own).
class PodsPage : public QWidget
{
    Q_OBJECT
public:
    explicit PodsPage(Document* document, QWidget* parent = nullptr);

    PodsModel* podsModel() const { return m_pods; }
    ClaimsModel* claimsModel() const { return m_claims; }
    EmptyTextTreeView* podsView() const { return m_podsView; }
    EmptyTextTableView* claimsView() const { return m_claimsView; }
    QLineEdit* filter() const { return m_filter; }
    /// The Kubernetes version and feature gates manifests are read and scheduled at (the
    /// document's), and what is wrong with gates typed there (hidden when nothing is).
    QComboBox* versionBox() const { return m_version; }
    QLineEdit* gatesEdit() const { return m_gates; }
    QLabel* gatesProblem() const { return m_gatesProblem; }
    QTextBrowser* diagnosisView() const { return m_diagnosis; }
    AllocationJob* job() const { return m_job; }
    ReplayPodsModel* replayPodsModel() const { return m_replayPods; }
    /// The timeline's cursor: a scenario's pods follow it.
    void setTimeCursor(TimeCursor* cursor);
    /// True while the page shows a scenario's run (not the one-shot scheduling of manifests).
    bool showsReplay() const { return m_replayMode; }

    /// Selects the pod (by "namespace/name") in the table; false when it is not shown.
    bool selectPod(const QString& podKey);
    /// Selects a PodGroup's row (by "namespace/name"); false when it is not shown.
    bool selectGroup(const QString& groupKey);
    /// For a run: the PodGroup or pod (namespace/name) to select whenever nothing else is
    /// selected and it is shown, before the first pending pod (`drasim-gui --select`).
    void setPreferredSelection(const QString& key) { m_preferred = key; }
    /// Selects the claim (by "namespace/name") in the claims table; false when it is not shown.
    bool selectClaim(const QString& claimKey);

Q_SIGNALS:
    /// The diagnosis pane now explains this pod.
    void diagnosisShown(const QString& podKey);
    /// For a scenario's run: the pane now also shows the diagnosis of this pending pod at `at`.
    void diagnosisAtShown(const QString& podKey, qint64 at);
    /// A claim ("namespace/name") was picked in the claims table, or, for a run, the pod holding
    /// it in the pods table.
    void claimSelected(const QString& claimKey);
    /// A PodGroup's row or one of its members was picked: the group ("namespace/name"), its
    /// placement domain ("key=value", "" when it has none) and the nodes its members run on.
    void groupSelected(const QString& groupKey, const QString& domain, const QStringList& nodes);
    /// A pod outside any PodGroup (or nothing) was picked.
    void groupCleared();

private:
    void onScheduled(std::shared_ptr<const AllocationOutcome> outcome);
    /// The diagnosis pane's text while no pod is selected.
    QString emptyHint() const;
    void onExplained(const QString& podKey, std::shared_ptr<const scheduler::PodDiagnosis> diagnosis);
    void onPodSelected();
    void onExplainedAt(const QString& podKey, qint64 at, std::shared_ptr<const sim::PodExplanationAt> answer);
    /// The seed of the run the timeline shows: the document's override, else the scenario's.
    quint64 runSeed() const;
    void setReplayMode(bool on);
    void showReplayState();
    /// What the tables say while they show no rows (a finished run, a filter matching nothing).
    void updateEmptyText();
    /// Selects the first pending pod shown, if any, to lead with the question this page answers.
    void selectFirstPending();
    /// Selects the first shown row (either level) that `matches`, bringing it into view.
    bool selectRow(const std::function<bool(const QModelIndex&)>& matches);
    /// After a reset: the run's PodGroups open, but those the user closed.
    void expandGroups();
    /// The selected row's PodGroup, with the Topology tab (groupSelected) and in the pane.
    void announceGroup(const QModelIndex& current);
    void showGroupRow(const QModelIndex& current);
    /// A group's row of the manifests' scheduling: its account, then the scheduler's through its
    /// first pending member.
    void showAllocatedGroupRow(const QModelIndex& current);
    /// The version box and gates follow the document: its own for manifests, the scenario's.
    void showVersion();
    /// The version and gates as chosen here go to the document; an error is shown, not applied.
    void applyVersion();

    Document* m_document;
    AllocationJob* m_job = nullptr;
    PodsModel* m_pods = nullptr;
    ClaimsModel* m_claims = nullptr;
    ReplayPodsModel* m_replayPods = nullptr;
    TimeCursor* m_cursor = nullptr;
    bool m_replayMode = false;
    /// What the replay pane shows before the diagnosis at its time arrives (kept beside it).
    QString m_recordedText;
    QSortFilterProxyModel* m_podsProxy = nullptr;
    QString m_preferred;
    QSet<QString> m_closedGroups; ///< PodGroups the user closed, kept closed as the time moves
    QSortFilterProxyModel* m_claimsProxy = nullptr;
    QLineEdit* m_filter = nullptr;
    QComboBox* m_version = nullptr;
    QLineEdit* m_gates = nullptr;
    QLabel* m_gatesProblem = nullptr;
    QLabel* m_summary = nullptr;
    EmptyTextTreeView* m_podsView = nullptr;
    EmptyTextTableView* m_claimsView = nullptr;
    QTextBrowser* m_diagnosis = nullptr;
};

} // namespace drasim::ui
