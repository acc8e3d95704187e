// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "core/api/core_v1.h"

namespace drasim::ui {

/// Pods after scheduling, one row each: namespace, name, status (Scheduled, Pending, Running...),
/// node, claims, and the scheduler's message for pending pods; a preemption victim (the
/// DisruptionTarget condition the scheduler sets) reads "Preempted" with that condition's message. Resets on
/// setPods().
class PodsModel : public QAbstractTableModel
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
    /// The rest are for models that show a PodGroup as a row with its members as children
    /// (ReplayPodsModel): GroupKeyRole, the PodGroup (namespace/name) of a member or a group's
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
    void setPods(std::vector<api::Pod> pods);
    int pendingCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "Pending" for pods the scheduler could not place; the loaded phase otherwise.
    static QString statusOf(const api::Pod& pod);

private:
    std::vector<api::Pod> m_pods;
};

} // namespace drasim::ui
