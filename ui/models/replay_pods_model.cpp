// SPDX-License-Identifier: Apache-2.0
#include "ui/models/replay_pods_model.h"

#include <map>

#include <QBrush>

#include "ui/models/core_text.h"
#include "ui/models/pods_model.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_text.h"
#include "ui/models/tone_colors.h"

namespace drasim::ui {

namespace { } // namespace

ReplayPodsModel::ReplayPodsModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ReplayPodsModel::setState(const ReplayState& state)
{
    // The claims each running pod holds devices through, in device order.
    std::map<std::string, QStringList> claims;
    for (const auto& [device, holder] : state.holders) {
        QStringList& list = claims[holder.pod];
        const QString claim = text(holder.claim);
        if (!claim.isEmpty() && !list.contains(claim))
            list << claim;
    }
    beginResetModel();
    m_rows.clear();
    // Both maps are sorted by pod; merged they keep that order.
    auto running = state.running.begin();
    auto pending = state.pending.begin();
    while (running != state.running.end() || pending != state.pending.end()) {
        const bool takeRunning = pending == state.pending.end()
            || (running != state.running.end() && running->first < pending->first);
        Row row;
        if (takeRunning) {
            row.key = text(running->first);
            row.node = text(running->second);
            row.claims = claims[running->first];
            if (auto victim = state.preempted.find(running->first); victim != state.preempted.end()) {
                row.preempted = true;
                row.message = text(victim->second);
            }
            ++running;
        } else {
            row.key = text(pending->first);
            row.message = text(pending->second);
            row.pending = true;
            ++pending;
        }
        m_rows.push_back(std::move(row));
    }
    m_pending = int(state.pending.size());
    endResetModel();
}

void ReplayPodsModel::clear()
{
    beginResetModel();
    m_rows.clear();
    m_pending = 0;
    endResetModel();
}

int ReplayPodsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ReplayPodsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : PodsModel::ColumnCount;
}

QVariant ReplayPodsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = m_rows[size_t(index.row())];
    if (role == PodsModel::PodKeyRole)
        return row.key;
    if (role == PodsModel::PendingRole)
        return row.pending;
    if (role == PodsModel::PreemptedRole)
        return row.preempted;
    // Pending pods and preemption victims stand out as in the Timeline's events.
    if (role == Qt::ForegroundRole)
        return (row.pending || row.preempted) && index.column() == PodsModel::StatusColumn
            ? QVariant(QBrush(toneColor(Tone::Warning)))
            : QVariant();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const qsizetype slash = row.key.indexOf(QLatin1Char('/'));
    switch (index.column()) {
    case PodsModel::NamespaceColumn:
        return slash < 0 ? QString() : row.key.left(slash);
    case PodsModel::NameColumn:
        return row.key.mid(slash + 1);
    case PodsModel::StatusColumn:
        return row.pending ? tr("Pending") : row.preempted ? tr("Preempted") : tr("Running");
    case PodsModel::NodeColumn:
        return row.node;
    case PodsModel::ClaimsColumn:
        return row.claims.join(QStringLiteral(", "));
    case PodsModel::MessageColumn:
        return row.message;
    }
    return {};
}

QVariant ReplayPodsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == PodsModel::MessageColumn)
        return tr("What the scheduler said of the pod the last time it tried it");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PodsModel::NamespaceColumn:
        return tr("Namespace");
    case PodsModel::NameColumn:
        return tr("Pod");
    case PodsModel::StatusColumn:
        return tr("Status");
    case PodsModel::NodeColumn:
        return tr("Node");
    case PodsModel::ClaimsColumn:
        return tr("Claims");
    case PodsModel::MessageColumn:
        return tr("Last message"); // short: the column takes what room is left, often little
    }
    return {};
}

QString emptyRunText(const ReplayState& state)
{
    if (!state.running.empty() || !state.pending.empty())
        return {};
    QStringList ended;
    if (state.succeeded > 0)
        ended << ReplayPodsModel::tr("%1 pods succeeded").arg(countText(state.succeeded));
    if (state.failed > 0)
        ended << ReplayPodsModel::tr("%1 failed").arg(countText(state.failed));
    if (state.evicted > 0)
        ended << ReplayPodsModel::tr("%1 evicted").arg(countText(state.evicted));
    if (ended.isEmpty())
        return ReplayPodsModel::tr("No pod has arrived yet at %1.").arg(formatSimTime(state.time));
    return ReplayPodsModel::tr("%1; none running or pending at %2.")
        .arg(ended.join(QStringLiteral(", ")), formatSimTime(state.time));
}

QString replayedPodInWords(const PodReplay& replay, const ReplayState& state, const std::string& pod)
{
    auto esc = [](const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); };
    sim::SimTime created = -1;
    sim::SimTime lastTurnedAway = -1;
    int turnedAway = 0;
    std::string workload;
    const auto& events = replay.events();
    for (size_t i = 0; i < replay.eventsUpTo(state.time); ++i) {
        const ReplayEvent& e = events[i];
        if (e.pod != pod)
            continue;
        if (e.type == sim::PodEventType::Created) {
            created = e.time;
            workload = e.workload;
        } else if (e.type == sim::PodEventType::Unschedulable) {
            ++turnedAway;
            lastTurnedAway = e.time;
        }
    }
    const QString at = formatSimTime(state.time);
    if (const auto running = state.running.find(pod); running != state.running.end()) {
        QString html = QObject::tr("<h3>Pod %1 at %2</h3><p>Running on node <b>%3</b>.</p>")
                           .arg(esc(pod), at, esc(running->second));
        // A victim keeps its node and devices through its grace period, then is evicted.
        if (const auto victim = state.preempted.find(pod); victim != state.preempted.end())
            html += QObject::tr("<p>Chosen as a preemption victim: <i>%1</i>. It is evicted when its grace "
                                "period is over.</p>")
                        .arg(esc(victim->second));
        return html;
    }
    const auto pending = state.pending.find(pod);
    if (pending == state.pending.end())
        return QObject::tr("<h3>Pod %1 at %2</h3><p>Not in the cluster at this time.</p>").arg(esc(pod), at);
    QString html = QObject::tr("<h3>Pod %1 is pending at %2</h3>").arg(esc(pod), at);
    if (created >= 0)
        html += QObject::tr("<p>Created at %1 by workload <b>%2</b>.</p>")
                    .arg(formatSimTime(created), esc(workload));
    if (turnedAway == 0)
        return html + QObject::tr("<p>The scheduler has not tried it yet (it waits in the queue).</p>");
    return html
        + QObject::tr(
            "<p>The scheduler turned it away %n time(s); the last time, at %1, it said: <i>%2</i></p>",
            nullptr, turnedAway)
              .arg(formatSimTime(lastTurnedAway), esc(pending->second));
}

} // namespace drasim::ui
