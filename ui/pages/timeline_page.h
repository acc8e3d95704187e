// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <memory>
#include <optional>

#include <QFutureWatcher>
#include <QWidget>

#include "ui/jobs/background_pool.h"
#include "ui/jobs/simulation_job.h"
#include "ui/models/pod_replay.h"

class QComboBox;
class QLabel;
class QSlider;
class QTableView;
class QTimer;
class QToolButton;

namespace drasim::ui {

class ReplayEventsModel;
class TimelineStrip;
class TimeCursor;

/// The scrubber over a finished simulation: play, pause, step, jump to the previous or next pod
/// event, drag to any time. It owns the TimeCursor every replaying view follows. The replay is
/// built from the run's pod events off the UI thread when the simulation finishes.
class TimelinePage : public QWidget
{
    Q_OBJECT
public:
    TimelinePage(SimulationJob* job, QWidget* parent = nullptr);
    ~TimelinePage() override;

    TimeCursor* cursor() const { return m_cursor; }
    ReplayEventsModel* eventsModel() const { return m_events; }
    TimelineStrip* strip() const { return m_strip; }
    /// Builds the replay of a run's events in the background (what a finished simulation does),
    /// with the run's node conditions when known (their events join the list).
    void load(std::shared_ptr<const std::vector<sim::PodEvent>> events, sim::SimTime duration,
        std::shared_ptr<const sim::NodeConditions> conditions = {});

    /// Where the cursor goes when a replay is loaded (unset: the end of the run).
    void setInitialTime(std::optional<sim::SimTime> t) { m_initialTime = t; }

    void play();
    void pause();
    bool isPlaying() const;
    /// Moves by one step (the step box: 1 minute to 1 hour), forwards or backwards.
    void step(int direction);
    void nextEvent();
    void previousEvent();

Q_SIGNALS:
    /// A replay was loaded and the cursor is at its end.
    void replayReady();
    /// The initial time asked for is after the run's end: the cursor shows the end instead.
    void initialTimeClamped(qint64 requested, qint64 end);

private:
    /// What the summary line counts, and what drasim simulate's count of `simulatorEvents` (-1:
    /// not known yet) counts instead.
    static QString eventCountsTip(qint64 simulatorEvents);
    void onTimeChanged();
    void onTick();
    void setControlsEnabled(bool enabled);

    std::optional<sim::SimTime> m_initialTime;
    TimeCursor* m_cursor = nullptr;
    ReplayEventsModel* m_events = nullptr;
    /// What the worker builds: the replay and the outline of the run for the strip.
    struct Built
    {
        std::shared_ptr<const PodReplay> replay;
        std::vector<PodReplay::Counts> counts;
        PodReplay::Peaks peaks;
    };
    QFutureWatcher<Built> m_build;
    TimelineStrip* m_strip = nullptr;
    QTimer* m_timer = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
    QToolButton* m_prevEvent = nullptr;
    QToolButton* m_nextEvent = nullptr;
    QComboBox* m_step = nullptr;
    QComboBox* m_speed = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_time = nullptr;
    QLabel* m_summary = nullptr;
    QTableView* m_table = nullptr;
    BackgroundPool m_pool; // last: destroyed first, waiting for a build in flight
};

} // namespace drasim::ui
