// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/timeline_page.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/models/core_text.h"
#include "ui/models/replay_events_model.h"
#include "ui/models/time_cursor.h"
#include "ui/models/time_text.h"
#include "ui/widgets/column_widths.h"
#include "ui/widgets/timeline_strip.h"

namespace drasim::ui {

namespace {

QToolButton* toolButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setIconSize(QSize(22, 22));
    return b;
}

// The slider counts seconds: an int of milliseconds would overflow after 24 simulated days.
int toSlider(sim::SimTime t)
{
    return int(t / sim::kSecond);
}

} // namespace

TimelinePage::TimelinePage(SimulationJob* job, QWidget* parent)
    : QWidget(parent)
{
    m_cursor = new TimeCursor(this);
    m_events = new ReplayEventsModel(this);
    m_timer = new QTimer(this);
    m_timer->setInterval(100);

    m_prevEvent = toolButton(this, QStyle::SP_MediaSkipBackward, tr("Previous event"));
    m_back = toolButton(this, QStyle::SP_MediaSeekBackward, tr("Step back"));
    m_play = toolButton(this, QStyle::SP_MediaPlay, tr("Play / pause (Space)"));
    m_play->setShortcut(Qt::Key_Space);
    m_forward = toolButton(this, QStyle::SP_MediaSeekForward, tr("Step forward"));
    m_nextEvent = toolButton(this, QStyle::SP_MediaSkipForward, tr("Next event"));
    m_step = new QComboBox(this);
    m_step->setToolTip(tr("How far one step moves"));
    for (auto [label, ms] :
        { std::pair { tr("step 1 min"), sim::kMinute }, { tr("step 5 min"), 5 * sim::kMinute },
            { tr("step 15 min"), 15 * sim::kMinute }, { tr("step 1 h"), sim::kHour } })
        m_step->addItem(label, QVariant::fromValue<qint64>(ms));
    m_step->setCurrentIndex(1);
    m_speed = new QComboBox(this);
    m_speed->setToolTip(tr("Simulated time per second of playing"));
    for (auto [label, ms] :
        { std::pair { tr("1 min/s"), sim::kMinute }, { tr("10 min/s"), 10 * sim::kMinute },
            { tr("1 h/s"), sim::kHour }, { tr("4 h/s"), 4 * sim::kHour } })
        m_speed->addItem(label, QVariant::fromValue<qint64>(ms));
    m_speed->setCurrentIndex(2);
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setTracking(true);
    m_time = new QLabel(this);
    QFont mono = m_time->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setBold(true);
    m_time->setFont(mono);
    m_time->setMinimumWidth(m_time->fontMetrics().horizontalAdvance(QStringLiteral("d00 00:00:00 ")));

    auto* controls = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*> { m_prevEvent, m_back, m_play, m_forward, m_nextEvent })
        controls->addWidget(w);
    controls->addWidget(m_time);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_step);
    controls->addWidget(m_speed);

    m_strip = new TimelineStrip(this);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setToolTip(eventCountsTip(-1));
    m_table = new QTableView(this);
    m_table->setModel(m_events);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_strip);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);

    connect(m_play, &QToolButton::clicked, this, [this]() { isPlaying() ? pause() : play(); });
    connect(m_back, &QToolButton::clicked, this, [this]() { step(-1); });
    connect(m_forward, &QToolButton::clicked, this, [this]() { step(+1); });
    connect(m_prevEvent, &QToolButton::clicked, this, &TimelinePage::previousEvent);
    connect(m_nextEvent, &QToolButton::clicked, this, &TimelinePage::nextEvent);
    connect(m_slider, &QSlider::valueChanged, this, [this](int seconds) {
        // Only a move by the user: the cursor's own moves put the slider within a second of it.
        if (seconds != toSlider(m_cursor->time()))
            m_cursor->setTime(sim::SimTime(seconds) * sim::kSecond);
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        m_cursor->setTime(index.data(ReplayEventsModel::TimeRole).toLongLong());
    });
    connect(m_strip, &TimelineStrip::seekRequested, this, [this](qint64 t) { m_cursor->setTime(t); });
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    connect(m_timer, &QTimer::timeout, this, &TimelinePage::onTick);
    connect(m_cursor, &TimeCursor::timeChanged, this, &TimelinePage::onTimeChanged);
    connect(&m_build, &QFutureWatcher<Built>::finished, this, [this]() {
        const Built built = m_build.result();
        auto replay = built.replay;
        m_strip->setCounts(built.counts, replay->endTime());
        m_strip->setPeaks(built.peaks);
        std::vector<sim::SimTime> marks;
        std::vector<sim::SimTime> preemptions;
        for (const auto& e : replay->events())
            if (!e.kind.empty())
                marks.push_back(e.time);
            else if (e.type == sim::PodEventType::Preempted)
                preemptions.push_back(e.time);
        m_strip->setMarks(std::move(marks));
        m_strip->setPreemptions(std::move(preemptions));
        m_events->setReplay(replay);
        m_cursor->setReplay(replay);
        m_slider->setRange(0, toSlider(m_cursor->endTime()));
        if (m_initialTime)
            m_cursor->setTime(*m_initialTime);
        if (m_initialTime && *m_initialTime > m_cursor->endTime())
            Q_EMIT initialTimeClamped(*m_initialTime, m_cursor->endTime());
        fitColumnsToSample(m_table); // every event of a long run would take a third of a second
        setControlsEnabled(true);
        onTimeChanged();
        Q_EMIT replayReady();
    });
    if (job)
        connect(
            job, &SimulationJob::finished, this, [this](std::shared_ptr<const SimulationOutcome> outcome) {
                if (outcome->podEvents && outcome->summary) {
                    m_summary->setToolTip(eventCountsTip(qint64(outcome->summary->events)));
                    load(outcome->podEvents, outcome->summary->simulatedTime, outcome->conditions);
                }
            });
    setControlsEnabled(false);
    onTimeChanged();
}

TimelinePage::~TimelinePage() = default;

void TimelinePage::load(std::shared_ptr<const std::vector<sim::PodEvent>> events, sim::SimTime duration,
    std::shared_ptr<const sim::NodeConditions> conditions)
{
    pause();
    // A build still running for an older run is not waited for: the watcher drops its result.
    m_build.setFuture(m_pool.run([events, duration, conditions]() -> Built {
        auto replay = std::make_shared<PodReplay>();
        for (const auto& e : *events)
            replay->append(e);
        replay->setEndTime(duration);
        replay->setConditions(conditions);
        // One point per simulated minute up to ~1000 points: smooth without costing the paint.
        const int points = int(std::clamp<sim::SimTime>(replay->endTime() / sim::kMinute, 2, 1000));
        auto counts = replay->countsOverTime(points);
        const PodReplay::Peaks peaks = replay->peaks();
        return Built { std::move(replay), std::move(counts), peaks };
    }));
}

void TimelinePage::setControlsEnabled(bool enabled)
{
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_prevEvent, m_back, m_play, m_forward, m_nextEvent, m_slider })
        w->setEnabled(enabled);
}

void TimelinePage::play()
{
    if (!m_cursor->replay())
        return;
    if (m_cursor->time() >= m_cursor->endTime())
        m_cursor->setTime(0);
    m_timer->start();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void TimelinePage::pause()
{
    m_timer->stop();
    m_play->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

bool TimelinePage::isPlaying() const
{
    return m_timer->isActive();
}

void TimelinePage::onTick()
{
    const qint64 perSecond = m_speed->currentData().toLongLong();
    m_cursor->setTime(m_cursor->time() + perSecond * m_timer->interval() / 1000);
    if (m_cursor->time() >= m_cursor->endTime())
        pause();
}

void TimelinePage::step(int direction)
{
    m_cursor->setTime(m_cursor->time() + direction * m_step->currentData().toLongLong());
}

void TimelinePage::nextEvent()
{
    if (auto r = m_cursor->replay())
        if (const sim::SimTime t = r->nextEventTime(m_cursor->time()); t >= 0)
            m_cursor->setTime(t);
}

void TimelinePage::previousEvent()
{
    if (auto r = m_cursor->replay())
        if (const sim::SimTime t = r->previousEventTime(m_cursor->time()); t >= 0)
            m_cursor->setTime(t);
}

QString TimelinePage::eventCountsTip(qint64 simulatorEvents)
{
    // The count the command line prints is of something else: say so, with its number, where the
    // two could be compared.
    const QString theirs = simulatorEvents < 0
        ? tr("The events drasim simulate counts in its summary")
        : tr("The %1 events drasim simulate counts in this run's summary").arg(countText(simulatorEvents));
    return tr("Pod events are the pods' Created, Scheduled, Unschedulable, Succeeded, ... as drasim "
              "simulate --events writes them; injected events are the scenario's NodeFailure, "
              "NodeReturn, DeviceTaint, .... %1 are the simulator's own steps (arrivals, completions, "
              "retries, samples): another count.")
        .arg(theirs);
}

void TimelinePage::onTimeChanged()
{
    const sim::SimTime t = m_cursor->time();
    m_time->setText(formatSimTime(t));
    {
        const QSignalBlocker quiet(m_slider);
        m_slider->setValue(toSlider(t));
    }
    m_events->setCurrentTime(t);
    m_strip->setTime(t);
    if (!m_cursor->replay()) {
        m_summary->setText(tr("Run the scenario (Simulation tab) to replay it here."));
        return;
    }
    const ReplayState& s = m_cursor->state();
    m_summary->setText(
        tr("At %1: <b>%2</b> pods running, <b>%3</b> pending, <b>%4</b> devices held · %5 of %6 events (%7 "
           "pod events, %8 injected into the cluster)")
            .arg(formatSimTime(t))
            .arg(s.running.size())
            .arg(s.pending.size())
            .arg(s.holders.size())
            .arg(countText(qint64(m_cursor->replay()->eventsUpTo(t))))
            .arg(countText(qint64(m_cursor->replay()->events().size())))
            .arg(countText(qint64(m_cursor->replay()->podEventCount())))
            .arg(countText(
                qint64(m_cursor->replay()->events().size() - m_cursor->replay()->podEventCount()))));
    const int row = m_events->rowAt(t);
    if (row >= 0) {
        const QSignalBlocker quiet(m_table->selectionModel());
        m_table->selectRow(row);
        m_table->scrollTo(m_events->index(row, 0), QAbstractItemView::PositionAtCenter);
    }
}

} // namespace drasim::ui
