// SPDX-License-Identifier: Apache-2.0
#include "ui/models/node_tiles_filter.h"

#include "ui/models/node_tiles_model.h"

namespace drasim::ui {

namespace {

/// Names compared as people number nodes: runs of digits by value (node-9 before node-10),
/// the rest without regard to case. QCollator's numeric mode needs ICU and a locale; the
/// offscreen "C" locale ignores it.
int naturalCompare(const QString& a, const QString& b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const qsizetype si = i, sj = j;
            while (i < a.size() && a[i].isDigit())
                ++i;
            while (j < b.size() && b[j].isDigit())
                ++j;
            // Without leading zeros, the longer run is the larger number.
            QStringView x = QStringView(a).mid(si, i - si), y = QStringView(b).mid(sj, j - sj);
            while (x.size() > 1 && x.front() == u'0')
                x = x.mid(1);
            while (y.size() > 1 && y.front() == u'0')
                y = y.mid(1);
            if (x.size() != y.size())
                return x.size() < y.size() ? -1 : 1;
            if (const int c = x.compare(y); c != 0)
                return c;
            continue;
        }
        const QChar x = a[i].toCaseFolded(), y = b[j].toCaseFolded();
        if (x != y)
            return x < y ? -1 : 1;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j ? -1 : (a.size() - i > b.size() - j ? 1 : 0);
}

} // namespace

NodeTilesFilter::NodeTilesFilter(NodeTilesModel* source, QObject* parent)
    : QSortFilterProxyModel(parent)
    , m_source(source)
{
    setSourceModel(source);
    setDynamicSortFilter(true);
    sort(0);
}

void NodeTilesFilter::refilter()
{
    invalidateFilter();
}

void NodeTilesFilter::setPool(const QString& pool)
{
    if (pool == m_pool)
        return;
    m_pool = pool;
    refilter();
}

void NodeTilesFilter::setModel(const QString& model)
{
    if (model == m_model)
        return;
    m_model = model;
    refilter();
}

void NodeTilesFilter::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    refilter();
}

void NodeTilesFilter::setSortBy(SortBy sort)
{
    if (sort == m_sortBy)
        return;
    m_sortBy = sort;
    invalidate();
}

void NodeTilesFilter::setGroupBy(GroupBy group)
{
    if (group == m_groupBy)
        return;
    m_groupBy = group;
    invalidate();
}

QString NodeTilesFilter::groupKey(const NodeTile& tile) const
{
    switch (m_groupBy) {
    case GroupBy::None:
        return {};
    case GroupBy::Pool:
        return tile.pool.isEmpty() ? tr("no pool") : tile.pool;
    case GroupBy::Rack:
        return tile.rack.isEmpty() ? tr("no rack") : tile.rack;
    case GroupBy::Model:
        return tile.models.isEmpty() ? tr("no device model") : tile.models.front();
    }
    return {};
}

QString NodeTilesFilter::groupOf(int row) const
{
    return groupKey(tileAt(row));
}

const NodeTile& NodeTilesFilter::tileAt(int row) const
{
    return m_source->tile(mapToSource(index(row, 0)).row());
}

bool NodeTilesFilter::filterAcceptsRow(int sourceRow, const QModelIndex&) const
{
    const NodeTile& t = m_source->tile(sourceRow);
    if (!m_pool.isEmpty() && t.pool != m_pool)
        return false;
    if (!m_model.isEmpty() && !t.models.contains(m_model))
        return false;
    switch (m_state) {
    case State::Any:
        return true;
    case State::Up:
        return t.look == NodeLook::Up;
    case State::Down:
        return t.look == NodeLook::Down;
    case State::Draining:
        return t.look == NodeLook::Draining;
    case State::Tainted:
        return t.look == NodeLook::Tainted || (t.look != NodeLook::Down && t.taintedDevices > 0);
    case State::Idle:
        return t.look != NodeLook::Down && t.held == 0;
    case State::Busy:
        return t.held > 0;
    case State::Full:
        return t.look != NodeLook::Down && t.use() >= 1.0;
    }
    return true;
}

bool NodeTilesFilter::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const NodeTile& a = m_source->tile(left.row());
    const NodeTile& b = m_source->tile(right.row());
    if (m_groupBy != GroupBy::None)
        if (const int group = naturalCompare(groupKey(a), groupKey(b)); group != 0)
            return group < 0;
    if (m_sortBy == SortBy::Use) {
        const double ua = a.use(), ub = b.use();
        if (ua != ub)
            return ua > ub; // the fullest first
    }
    return naturalCompare(a.name, b.name) < 0;
}

} // namespace drasim::ui
