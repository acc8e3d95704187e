// SPDX-License-Identifier: Apache-2.0
#include "ui/models/two_level_model.h"

namespace drasim::ui {

QModelIndex TwoLevelModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= columnCount(parent) || row >= rowCount(parent))
        return {};
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : quintptr(0));
}

QModelIndex TwoLevelModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(topRowOf(child), 0, quintptr(0));
}

} // namespace drasim::ui
