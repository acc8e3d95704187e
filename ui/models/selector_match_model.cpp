// SPDX-License-Identifier: Apache-2.0
#include "ui/models/selector_match_model.h"

#include <QBrush>

#include "ui/models/tone_colors.h"

namespace drasim::ui {

SelectorMatchModel::SelectorMatchModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void SelectorMatchModel::setPreview(std::shared_ptr<const session::SelectorPreview> preview)
{
    beginResetModel();
    m_preview = std::move(preview);
    endResetModel();
}

int SelectorMatchModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_preview ? 0 : int(m_preview->devices.size());
}

int SelectorMatchModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SelectorMatchModel::deviceName(int row) const
{
    if (!m_preview || row < 0 || row >= rowCount())
        return {};
    const auto& d = m_preview->devices[size_t(row)];
    return QString::fromStdString(d.driver + "/" + d.pool + "/" + d.device);
}

QVariant SelectorMatchModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_preview)
        return {};
    const auto& d = m_preview->devices[size_t(index.row())];
    using session::DeviceMatch;
    if (role == MatchRole)
        return int(d.match);
    if (role == Qt::ForegroundRole && index.column() == ResultColumn)
        return QBrush(toneColor(d.match == DeviceMatch::Match ? Tone::Good
                : d.match == DeviceMatch::NoMatch             ? Tone::Muted
                                                              : Tone::Bad));
    if (role == Qt::ToolTipRole && d.match == DeviceMatch::Error)
        return QString::fromStdString(d.error);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case DeviceColumn:
        return deviceName(index.row());
    case NodeColumn:
        return d.node.empty() ? tr("(network)") : QString::fromStdString(d.node);
    case ResultColumn:
        if (d.match == DeviceMatch::Match)
            return tr("match");
        if (d.match == DeviceMatch::NoMatch)
            return tr("no match: the selector is false");
        return tr("error: %1").arg(QString::fromStdString(d.error));
    }
    return {};
}

QVariant SelectorMatchModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DeviceColumn:
        return tr("Device");
    case NodeColumn:
        return tr("Node");
    case ResultColumn:
        return tr("Result");
    }
    return {};
}

} // namespace drasim::ui
