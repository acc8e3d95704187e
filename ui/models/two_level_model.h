// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QAbstractItemModel>
#include <QVariant>

namespace drasim::ui {

/// A model of top-level rows, some with member rows under them, one level deep (a PodGroup and
/// its pods). A top-level index has internal id 0; a member's is its top-level row's number plus
/// one, so parent() needs no lookup. Subclasses give rowCount() and columnCount().
class TwoLevelModel : public QAbstractItemModel
{
public:
    using QAbstractItemModel::QAbstractItemModel;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;

protected:
    /// How a group's row looks (FontRole, ForegroundRole): bold, and its Status cell in the
    /// warning tone while the group is not settled. A null QVariant for other roles.
    static QVariant groupRowLook(int role, bool statusCell, bool settled);
    /// The top-level row a member index is under; -1 for a top-level index.
    static int topRowOf(const QModelIndex& index)
    {
        return index.internalId() == 0 ? -1 : int(index.internalId() - 1);
    }
};

} // namespace drasim::ui
