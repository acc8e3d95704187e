// SPDX-License-Identifier: Apache-2.0
#include "ui/models/diagnostics_model.h"

#include <algorithm>

#include <QBrush>

#include "ui/models/tone_colors.h"

namespace drasim::ui {

DiagnosticsModel::DiagnosticsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void DiagnosticsModel::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    beginResetModel();
    m_items = std::move(diagnostics);
    endResetModel();
}

const Diagnostic* DiagnosticsModel::diagnosticAt(int row) const
{
    return row >= 0 && row < int(m_items.size()) ? &m_items[size_t(row)] : nullptr;
}

int DiagnosticsModel::errorCount() const
{
    return int(std::count_if(
        m_items.begin(), m_items.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

int DiagnosticsModel::warningCount() const
{
    return int(m_items.size()) - errorCount();
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int DiagnosticsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const
{
    const Diagnostic* d = index.isValid() ? diagnosticAt(index.row()) : nullptr;
    if (!d)
        return {};
    if (role == Qt::ForegroundRole && index.column() == SeverityColumn)
        return QBrush(toneColor(d->severity == Severity::Error ? Tone::Bad : Tone::Warning));
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(d->format());
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case SeverityColumn:
        return d->severity == Severity::Error ? tr("error") : tr("warning");
    case LocationColumn: {
        if (d->pos.file.empty())
            return QString();
        QString loc = QString::fromStdString(d->pos.file);
        if (d->pos.line > 0)
            loc += QStringLiteral(":%1:%2").arg(d->pos.line).arg(d->pos.column);
        return loc;
    }
    case ObjectColumn:
        return d->objectKind.empty() ? QString()
                                     : QString::fromStdString(d->objectKind + " " + d->objectName).trimmed();
    case FieldColumn:
        return QString::fromStdString(d->fieldPath);
    case MessageColumn:
        return QString::fromStdString(d->message);
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LocationColumn:
        return tr("Location");
    case ObjectColumn:
        return tr("Object");
    case FieldColumn:
        return tr("Field");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace drasim::ui
