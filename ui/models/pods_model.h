// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QString>

#include "core/api/core_v1.h"
#include "core/api/scheduling_v1.h"
#include "ui/models/pod_replay.h"
#include "ui/models/two_level_model.h"

namespace drasim::ui {

/// Pods after scheduling, one row each in input order: namespace, name, status (Scheduled,
/// Pending, Running...), node, claims, and the scheduler's message for pending pods; a preemption
/// victim (the DisruptionTarget condition the scheduler sets) reads "Preempted" with that
/// condition's message. The members of a PodGroup placed as a unit (placedAsUnit: a gang, or a
/// group kept in one topology domain) are the children of one row for their group, at its first
/// member's place: the group's state, its policy and members bound of total with what its cycle
/// said, and its placement domain in the Node column, as a run's groups read. Resets on setPods().
class PodsModel : public TwoLevelModel
{
    Q_OBJECT
public:
    enum Column {
        NamespaceColumn,
        NameColumn,
        StatusColumn,
        NodeColumn,
        ClaimsColumn,
        MessageColumn,
        ColumnCount
    };
    /// PreemptedRole: bool, the pod was chosen as a preemption victim (it runs out its grace
    /// period on its node, then is evicted).
    /// For PodGroups shown as a row with their members as children (here and in
    /// ReplayPodsModel): GroupKeyRole, the PodGroup (namespace/name) of a member or a group's
    /// row; IsGroupRole, the row stands for a group (PodKeyRole is empty there); MinCountRole
    /// (0 for a basic group), BoundRole and MembersRole, its members bound and in all;
    /// DomainRole, its placement domain ("key=value"); ExplainKeyRole, the pod whose explanation
    /// answers for the row (the pod itself; for a group, its first pending member, if any).
    enum Roles {
        PodKeyRole = Qt::UserRole + 1,
        PendingRole,
        PreemptedRole,
        GroupKeyRole,
        IsGroupRole,
        MinCountRole,
        BoundRole,
        MembersRole,
        DomainRole,
        ExplainKeyRole
    };

    explicit PodsModel(QObject* parent = nullptr);
    /// `groups`: the PodGroups as the scheduling left them (their conditions); `nodes` give a
    /// group's placement domain.
    void setPods(std::vector<api::Pod> pods, std::vector<api::PodGroup> groups = {},
        const std::vector<api::Node>& nodes = {});
    int pendingCount() const;
    /// Every pod, members of groups included.
    int podCount() const { return int(m_pods.size()); }
    /// Rows that stand for a PodGroup.
    int groupCount() const { return m_groupCount; }
    /// The groups and members as the run's replay would have them just after this scheduling
    /// (for the group's account in the explanation pane).
    const ReplayState& groupState() const { return m_state; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "Pending" for pods the scheduler could not place; the loaded phase otherwise.
    static QString statusOf(const api::Pod& pod);

private:
    /// A top-level row: one pod, or a group with its member pods.
    struct Row
    {
        int pod = -1; ///< index in m_pods; -1 for a group's row
        std::string group; ///< the group's key (a group's row)
        QString status;
        QString message;
        bool settled = false; ///< every member bound, none preempted
        std::vector<int> members; ///< indices in m_pods, in input order
        // Worked out once per scheduling, not on every paint:
        int minCount = 0;
        int bound = 0;
        std::string domain; ///< "key=value" while a member is bound there, else ""
        QString firstPending; ///< the first pending member's key
    };
    const api::Pod* podAt(const QModelIndex& index) const;
    QVariant podData(const api::Pod& pod, int column, int role) const;
    QVariant groupData(const Row& row, int column, int role) const;
    void buildRows(const std::vector<api::PodGroup>& groups);

    std::vector<api::Pod> m_pods;
    std::vector<Row> m_rows;
    ReplayState m_state;
    int m_groupCount = 0;
};

} // namespace drasim::ui
