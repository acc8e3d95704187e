// SPDX-License-Identifier: Apache-2.0
#include "ui/models/two_level_model.h"

#include <QBrush>
#include <QFont>

#include "ui/models/tone_colors.h"

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

QVariant TwoLevelModel::groupRowLook(int role, bool statusCell, bool settled)
{
    if (role == Qt::FontRole) {
        QFont font;
        font.setBold(true);
        return font;
    }
    // A group waiting, partly bound or preempted stands out as its pods do.
    if (role == Qt::ForegroundRole && statusCell && !settled)
        return QBrush(toneColor(Tone::Warning));
    return {};
}

} // namespace drasim::ui
