// SPDX-License-Identifier: Apache-2.0
#include "ui/models/compare_models.h"

#include <cmath>

#include <QBrush>

#include "ui/models/core_text.h"
#include "ui/models/time_text.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

namespace { } // namespace

QString runLabel(const compare::RunColumn& run)
{
    QString label = QStringLiteral("#%1 %2").arg(run.id).arg(text(run.scenario));
    if (run.revision > 0)
        label += QObject::tr(" rev %1").arg(run.revision);
    label += QObject::tr(", seed %1").arg(run.seed);
    if (!run.label.empty())
        label += QStringLiteral(" (%1)").arg(text(run.label));
    return label;
}

QString kpiValueText(const std::optional<double>& value, const std::string& unit, bool sign)
{
    if (!value)
        return QStringLiteral("–");
    const double v = *value;
    const QString plus = sign && v > 0 ? QStringLiteral("+") : QString();
    if (unit == "s") {
        const QString shown = formatSeconds(std::fabs(v)); // as every view writes a duration
        const QString minus = v < 0 && shown != QLatin1String("0s") ? QStringLiteral("-") : QString();
        return plus + minus + shown;
    }
    if (unit == "%")
        return plus + QString::number(v, 'f', 1) + QStringLiteral("%");
    if (unit == "USD")
        return (v < 0 ? QStringLiteral("-$") : plus + QStringLiteral("$"))
            + QString::number(std::fabs(v), 'f', 2);
    const bool counted = unit == "pods" || unit == "claims";
    // "1 pod", not "1 pods": a count of one takes the singular.
    const QString unitText = counted && std::fabs(v) == 1.0 ? text(unit).chopped(1) : text(unit);
    return plus + QString::number(v, 'f', counted ? 0 : 2) + QLatin1Char(' ') + unitText;
}

QString kpiDisplayName(const QString& id)
{
    // "neverScheduled" reads "never scheduled"; the id itself stays in the tooltip.
    QString out;
    for (qsizetype i = 0; i < id.size(); ++i) {
        const QChar c = id[i];
        const bool hump = c.isUpper() && i > 0 && id[i - 1].isLower();
        out += hump ? QStringLiteral(" ") + c.toLower() : QString(c);
    }
    return out;
}

RunListModel::RunListModel(QObject* parent)
    : QAbstractListModel(parent)
{ }

void RunListModel::setRuns(std::vector<storage::RunInfo> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

int RunListModel::rowOf(qint64 id) const
{
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id)
            return int(i);
    return -1;
}

int RunListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

QVariant RunListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_runs.size()))
        return {};
    const auto& r = m_runs[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: {
        compare::RunColumn c { r.id, r.scenario, r.scenarioRevision, r.seed, r.label, r.status };
        QString label = runLabel(c);
        if (r.status != "finished")
            label += QStringLiteral(" — %1").arg(text(r.status));
        return label;
    }
    case Qt::ToolTipRole:
        return tr("Run #%1 of %2, recorded %3 (%4)")
            .arg(r.id)
            .arg(text(r.scenario), text(r.createdAt), text(r.status));
    case RunIdRole:
        return qlonglong(r.id);
    default:
        return {};
    }
}

Qt::ItemFlags RunListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid() || index.row() >= int(m_runs.size()))
        return Qt::NoItemFlags;
    // Runs that never finished have no summary to compare.
    if (m_runs[size_t(index.row())].status != "finished")
        return Qt::ItemNeverHasChildren;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
}

KpiCompareModel::KpiCompareModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void KpiCompareModel::setComparison(std::shared_ptr<const compare::Comparison> comparison)
{
    beginResetModel();
    m_comparison = std::move(comparison);
    endResetModel();
}

int KpiCompareModel::rowOf(const QString& name) const
{
    if (!m_comparison)
        return -1;
    for (size_t i = 0; i < m_comparison->kpis.size(); ++i)
        if (text(m_comparison->kpis[i].name) == name)
            return int(i);
    return -1;
}

int KpiCompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_comparison ? 0 : int(m_comparison->kpis.size());
}

int KpiCompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

/// "≥" or "≤" before a value that is only a bound (compare::Bound), nothing otherwise: the marks
/// the Simulation tab gives a wait pods never scheduled could still raise.
QString boundText(const std::vector<compare::Bound>& bounds, size_t i, const std::optional<double>& v)
{
    if (!v || i >= bounds.size() || bounds[i] == compare::Bound::Exact)
        return {};
    return bounds[i] == compare::Bound::AtLeast ? QStringLiteral("≥ ") : QStringLiteral("≤ ");
}

} // namespace

int KpiCompareModel::verdict(const compare::Kpi& k) const
{
    if (k.deltas.size() < 2 || !k.deltas[1] || k.better == compare::Better::Neither)
        return 0;
    const double d = *k.deltas[1];
    if (std::fabs(d) < 1e-9)
        return 0;
    // A bound decides only on its side: "at least +5" is surely up, "at least -5" could be either.
    const compare::Bound bound = k.deltaBounds.size() > 1 ? k.deltaBounds[1] : compare::Bound::Exact;
    if ((bound == compare::Bound::AtLeast && d < 0) || (bound == compare::Bound::AtMost && d > 0))
        return 0;
    const bool lowerIsBetter = k.better == compare::Better::Lower;
    return (d < 0) == lowerIsBetter ? 1 : -1;
}

QVariant KpiCompareModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_comparison || index.row() >= int(m_comparison->kpis.size()))
        return {};
    const auto& k = m_comparison->kpis[size_t(index.row())];
    auto value = [&k](size_t run) { return run < k.values.size() ? k.values[run] : std::nullopt; };
    if (role == VerdictRole)
        return verdict(k);
    if (role == Qt::ToolTipRole)
        return text(k.name);
    if (role == Qt::TextAlignmentRole && index.column() >= BaseColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == DeltaColumn) {
        // Green for an improvement, red for a regression, in shades that read on either palette.
        const int v = verdict(k);
        if (v == 0)
            return {};
        return QBrush(toneColor(v > 0 ? Tone::Good : Tone::Bad));
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case GroupColumn:
        return text(k.group);
    case NameColumn: {
        const QString name = text(k.name);
        const qsizetype dot = name.indexOf(QLatin1Char('.'));
        return kpiDisplayName(dot >= 0 && name.left(dot) == text(k.group) ? name.mid(dot + 1) : name);
    }
    case UnitColumn:
        return text(k.unit);
    case BaseColumn:
        return QString(boundText(k.valueBounds, 0, value(0)) + kpiValueText(value(0), k.unit));
    case OtherColumn:
        return QString(boundText(k.valueBounds, 1, value(1)) + kpiValueText(value(1), k.unit));
    case DeltaColumn: {
        const std::optional<double> d = k.deltas.size() > 1 ? k.deltas[1] : std::nullopt;
        return QString(boundText(k.deltaBounds, 1, d) + kpiValueText(d, k.unit, true));
    }
    default:
        return {};
    }
}

QVariant KpiCompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const auto* c = m_comparison.get();
    switch (section) {
    case GroupColumn:
        return tr("Group");
    case NameColumn:
        return tr("KPI");
    case UnitColumn:
        return tr("Unit");
    case BaseColumn:
        return c && !c->runs.empty() ? QStringLiteral("A: #%1").arg(c->runs[0].id) : tr("A");
    case OtherColumn:
        return c && c->runs.size() > 1 ? QStringLiteral("B: #%1").arg(c->runs[1].id) : tr("B");
    case DeltaColumn:
        return tr("B − A");
    default:
        return {};
    }
}

} // namespace drasim::ui
