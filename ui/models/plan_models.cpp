// SPDX-License-Identifier: Apache-2.0
#include "ui/models/plan_models.h"

#include <algorithm>

#include <QFont>
#include <QRegularExpression>
#include <QStringList>

#include "ui/models/core_text.h"

namespace drasim::ui {

namespace {

QString mixText(const planner::MixResult& m, const planner::StudyResult& r)
{
    return text(planner::formatMix(m.mix, r.candidates));
}

QString spreadText(const planner::StudyResult& r, const planner::MixResult& m, size_t level)
{
    if (level >= r.levels.size() || level >= m.spread.size())
        return {};
    const auto& l = r.levels[level];
    const auto& s = m.spread[level];
    if (!s.known) // a run stopped early: its values are no results
        return QObject::tr("not known (a run stopped early)");
    return text(planner::formatLevelValue(l, s.min)) + QStringLiteral(" / ")
        + text(planner::formatLevelValue(l, s.mean)) + QStringLiteral(" / ")
        + text(planner::formatLevelValue(l, s.max));
}

/// What the costs count and how the load grows, when either is not the plain case (purchase
/// prices, nothing owned, arrivals sooner): the reader of "buy a100=+4" must know it is on top of
/// what is owned and what a dollar figure adds up.
QString costHtml(const planner::StudyResult& r)
{
    QString html;
    if (planner::anyOwned(r.candidates)) {
        QStringList owned;
        for (const auto& c : r.candidates)
            if (c.ownedNodes() > 0)
                owned << QStringLiteral("%1 %2").arg(c.ownedNodes()).arg(text(c.name));
        html += QObject::tr("<p>Owned already: %1. Every mix holds them; its cost counts only what is bought "
                            "on top.</p>")
                    .arg(owned.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    if (r.cost != planner::CostBasis::Purchase)
        html += QObject::tr("<p>Costs: %1.</p>").arg(text(planner::costBasisText(r)).toHtmlEscaped());
    if (r.growth == planner::Growth::Jobs && r.loads.size() > 1)
        html += QObject::tr("<p>Load growth: %1.</p>").arg(text(planner::growthText(r)).toHtmlEscaped());
    return html;
}

} // namespace

LevelAxis levelAxis(const planner::ServiceLevel& level)
{
    LevelAxis axis;
    const QString what = text(level.describe());
    // "longest pending <= 1h" → "longest pending": the axis names the quantity, not the bound.
    const qsizetype bound = what.indexOf(QRegularExpression(QStringLiteral(" (<=|>=) ")));
    const QString name = bound > 0 ? what.left(bound) : what;
    axis.name = name;
    if (level.metric == planner::Metric::Wait || level.metric == planner::Metric::Pending) {
        axis.title = QObject::tr("%1 (min)").arg(name);
        axis.scale = 1.0 / 60.0;
    } else {
        axis.title = QObject::tr("%1 (%)").arg(name);
        axis.scale = 100.0;
        axis.percent = true;
    }
    axis.limit = level.limit * axis.scale;
    return axis;
}

PlanMixesModel::PlanMixesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void PlanMixesModel::setResult(std::shared_ptr<const planner::StudyResult> result, int load)
{
    beginResetModel();
    m_result = std::move(result);
    m_load = m_result && load >= 0 && size_t(load) < m_result->loads.size() ? load : 0;
    m_reasons = m_result ? planner::loadReasons(*m_result, size_t(m_load)) : planner::LoadReasons {};
    endResetModel();
}

const planner::LoadResult* PlanMixesModel::level() const
{
    if (!m_result || size_t(m_load) >= m_result->loads.size())
        return nullptr;
    return &m_result->loads[size_t(m_load)];
}

int PlanMixesModel::rowCount(const QModelIndex& parent) const
{
    const auto* l = level();
    return parent.isValid() || !l ? 0 : int(l->mixes.size());
}

int PlanMixesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanMixesModel::display(const planner::MixResult& m, int column) const
{
    const auto& r = *m_result;
    switch (column) {
    case MixColumn:
        return mixText(m, r);
    case CostColumn:
        return text(planner::formatMoney(m.footprint.costUsd));
    case NodesColumn:
        return qlonglong(m.footprint.nodes);
    case PowerColumn:
        return QString::number(m.footprint.powerWatts / 1000.0, 'f', 1);
    case RackColumn:
        return qlonglong(m.footprint.rackSlots);
    case MainColumn:
        return text(planner::worstMainText(m, r.levels));
    case VerdictColumn:
        if (!m.withinConstraints)
            return tr("outside the constraints");
        return m.feasible ? tr("meets every level")
                          : tr("misses %1").arg(text(planner::missesText(m, r.levels)));
    default:
        return {};
    }
}

QVariant PlanMixesModel::data(const QModelIndex& index, int role) const
{
    const auto* l = level();
    if (!index.isValid() || !l || index.row() >= int(l->mixes.size()))
        return {};
    const size_t row = size_t(index.row());
    const auto& m = l->mixes[row];
    const bool recommended = l->recommended && *l->recommended == row;
    const bool frontier
        = std::find(m_reasons.frontier.begin(), m_reasons.frontier.end(), row) != m_reasons.frontier.end();
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == FrontierColumn)
            return recommended ? tr("recommended")
                : frontier     ? (m.feasible && m.withinConstraints ? tr("yes") : tr("yes, misses a level"))
                               : QString();
        return display(m, index.column());
    case Qt::TextAlignmentRole:
        if (index.column() == MixColumn || index.column() == FrontierColumn
            || index.column() == VerdictColumn)
            return {};
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (recommended) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == VerdictColumn && !m.feasible)
            return display(m, index.column()); // long: whole in the tooltip
        return recommended ? tr("The recommendation: the cheapest mix meeting every level on every seed")
            : frontier     ? tr("On the frontier: no mix as cheap that meets as much has a better main level")
                           : QVariant();
    case CostRole:
        return m.footprint.costUsd;
    case MainValueRole:
        return m_result->levels.empty()
            ? 0.0
            : m.worstMain(m_result->levels.front()) * levelAxis(m_result->levels.front()).scale;
    case FeasibleRole:
        return m.feasible && m.withinConstraints;
    case FrontierRole:
        return frontier;
    case RecommendedRole:
        return recommended;
    case MainKnownRole:
        return m.spread.empty() || m.spread[0].known;
    default:
        return {};
    }
}

QVariant PlanMixesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MixColumn:
        return tr("Mix");
    case CostColumn:
        return tr("Cost");
    case NodesColumn:
        return tr("Nodes");
    case PowerColumn:
        return tr("Power (kW)");
    case RackColumn:
        return tr("Rack slots");
    case MainColumn:
        return m_result && !m_result->levels.empty()
            ? text(m_result->levels.front().describe()) + tr(" (worst seed)")
            : tr("Main level");
    case FrontierColumn:
        return tr("Frontier");
    case VerdictColumn:
        return tr("Service levels");
    default:
        return {};
    }
}

PlanLoadsModel::PlanLoadsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void PlanLoadsModel::setResult(std::shared_ptr<const planner::StudyResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int PlanLoadsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->loads.size());
}

int PlanLoadsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanLoadsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_result || index.row() >= int(m_result->loads.size()))
        return {};
    const auto& r = *m_result;
    const auto& lr = r.loads[size_t(index.row())];
    if (role == Qt::TextAlignmentRole && index.column() == CostColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == LoadColumn)
        return text(planner::loadLabel(lr.load));
    if (!lr.recommended)
        return index.column() == MixColumn ? tr("no mix meets every level") : QVariant();
    const auto& rec = lr.mixes[*lr.recommended];
    const auto& today = r.loads.front();
    switch (index.column()) {
    case MixColumn:
        return mixText(rec, r);
    case CostColumn:
        return text(planner::formatMoney(rec.footprint.costUsd));
    case VersusColumn:
        if (index.row() == 0)
            return QString();
        if (!today.recommended)
            return tr("nothing qualifies today");
        return text(planner::versusText(rec, today.mixes[*today.recommended], r));
    case SpreadColumn:
        return spreadText(r, rec, 0);
    default:
        return {};
    }
}

QVariant PlanLoadsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == SpreadColumn && m_result
        && !m_result->levels.empty())
        return tr("%1, across seeds").arg(text(m_result->levels.front().describe()));
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case LoadColumn:
        return tr("Load");
    case MixColumn:
        return tr("Recommended mix");
    case CostColumn:
        return tr("Cost");
    case VersusColumn:
        return tr("Versus today");
    case SpreadColumn:
        return tr("Main level: min / mean / max");
    default:
        return {};
    }
}

QString recommendationHtml(const planner::StudyResult& r, int load)
{
    if (load < 0 || size_t(load) >= r.loads.size())
        return {};
    const auto& lr = r.loads[size_t(load)];
    const QString where = text(planner::loadLabel(lr.load)).toHtmlEscaped();
    if (!lr.recommended) {
        QString html
            = QObject::tr("<p><b>At %1 no mix within maxNodes and the constraints meets every service "
                          "level.</b></p>")
                  .arg(where);
        for (auto it = lr.mixes.rbegin(); it != lr.mixes.rend(); ++it)
            if (!it->feasible) {
                html += QObject::tr("<p>The largest tried, %1, misses %2.</p>")
                            .arg(mixText(*it, r).toHtmlEscaped(),
                                text(planner::missesText(*it, r.levels)).toHtmlEscaped());
                break;
            }
        html += costHtml(r);
        const auto lines = planner::reasonLines(r, size_t(load), planner::loadReasons(r, size_t(load)));
        for (const std::string& line : lines)
            html += QStringLiteral("<p>%1</p>").arg(text(line).toHtmlEscaped());
        return html;
    }
    const auto& rec = lr.mixes[*lr.recommended];
    const planner::LoadReasons reasons = planner::loadReasons(r, size_t(load));
    const QString nodes = rec.footprint.nodes == 1
        ? QObject::tr("1 node")
        : QObject::tr("%1 nodes").arg(countText(rec.footprint.nodes));
    QString html
        = QObject::tr("<p>At %1 buy <b>%2</b>: %3, %4 kW, %5 rack slots, %6.</p>")
              .arg(where, mixText(rec, r).toHtmlEscaped(), text(planner::formatMoney(rec.footprint.costUsd)),
                  QString::number(rec.footprint.powerWatts / 1000.0, 'f', 1))
              .arg(rec.footprint.rackSlots)
              .arg(nodes);
    html += costHtml(r);
    html += r.seeds.size() == 1
        ? QObject::tr("<p>On its one seed:</p><ul>")
        : QObject::tr("<p>Across %1 seeds (min / mean / max):</p><ul>").arg(r.seeds.size());
    for (size_t i = 0; i < r.levels.size(); ++i)
        html += QStringLiteral("<li>%1: %2%3</li>")
                    .arg(text(r.levels[i].describe()).toHtmlEscaped(), spreadText(r, rec, i).toHtmlEscaped(),
                        reasons.binding == i ? QObject::tr(" <b>(binding)</b>") : QString());
    html += QStringLiteral("</ul>");
    // Why, in core's words: the binding level, then the neighbours on the frontier.
    const auto lines = planner::reasonLines(r, size_t(load), reasons);
    if (!lines.empty()) {
        html += QObject::tr("<p>Why this mix:</p><ul>");
        for (const std::string& line : lines)
            html += QStringLiteral("<li>%1</li>").arg(text(line).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    return html;
}

} // namespace drasim::ui
