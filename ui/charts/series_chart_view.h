// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

#include "ui/charts/chart_view.h"

class QLineSeries;
class QValueAxis;

namespace drasim::ui {

class RunSeriesModel;
class TimeAxis;

/// A line chart over the columns of a RunSeriesModel whose series name starts with a prefix
/// ("pods." shows pending and running pods; "utilization.model/" one line per GPU model). Lines are
/// added as their series appear; axes grow with the data. Hovering shows every line's value at the
/// time under the mouse; zoom and export (PNG, SVG, and the data as CSV) come from ChartView. While
/// zoomed, new samples extend the lines but leave the axes alone. All Qt Charts use lives in ui/charts.
class SeriesChartView : public ChartView
{
    Q_OBJECT
public:
    SeriesChartView(const QString& title, const QString& seriesPrefix, const QString& yTitle, bool percent,
        RunSeriesModel* model, QWidget* parent = nullptr);

    int lineCount() const;
    /// Series the prefix matches but the chart leaves out (call before samples arrive): the
    /// longest wait in seconds is no count of pods.
    void setExcluded(const QStringList& series) { m_excluded = series; }
    /// What the plot says while samples arrived but no line did ("nothing pending").
    void setEmptyText(const QString& text) { m_emptyText = text; }
    /// The text shown over the plot now (empty when lines are drawn or nothing ran yet).
    QString shownEmptyText() const;
    /// Labels on the time axis now, left to right ("0s", "6h", ...).
    QStringList timeTickLabels() const;
    /// The run's simulated length in hours: the time axis spans it from the start, so it does not
    /// have to be laid out again with every batch of samples (0: grow with the data).
    void setTimeSpan(double hours);

    /// "pending at 12h30m: 42" for the sample of `line` nearest to x (hours); empty without samples.
    QString valueText(int line, double x) const;

    /// Something that happened to the cluster at a time (hours), marked by a dashed vertical line
    /// with its kind along it ("NodeFailure ×3" when several of one kind share the time); hovering
    /// names what each acted on.
    struct EventMark
    {
        double hours = 0;
        QString kind; ///< "NodeFailure"
        QString subject; ///< "l40s-0"
    };
    void setEventMarks(QList<EventMark> marks);
    const QList<EventMark>& eventMarks() const { return m_marks; }
    /// The label along the mark line at a time (empty when none is there).
    QString markLabel(double hours) const;
    /// The x of a time in viewport coordinates (for tests and hover).
    double viewportX(double hours) const;

protected:
    void fitAxes() override;
    /// Gives every line back its hue after the theme recoloured them.
    void themeChanged() override;
    /// Each line's sample nearest to the time under the mouse, one line of text per chart line.
    QString hoverText(const QPointF& value, const QPointF& position) const override;
    /// The lines as CSV: "hours" then one column per line (the values as shown: percent when the
    /// chart shows percent), one row per sample; a line without a value at a sample leaves it empty.
    QByteArray csvText() const override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

private:
    void addLine(const QString& name, int column);
    void appendRows(int firstRow, int lastRow);
    void appendPoints(int line, int firstRow, int lastRow);
    void updateAxes(int lastRow);

    QString m_prefix;
    bool m_percent;
    RunSeriesModel* m_model;
    TimeAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QList<int> m_columns; // model columns shown, parallel to m_lines
    QList<QLineSeries*> m_lines;
    QList<SeriesHue> m_hues; // parallel to m_lines
    double m_maxX = 1;
    double m_maxY = 1;
    double m_span = 0;
    double m_shownX = -1; // the axis ranges last set, to skip setting them again
    double m_shownY = -1;
    /// One per time, sorted: the line's label and what hovering tells.
    struct MarkLine
    {
        double hours = 0;
        QString label;
        QStringList details;
    };
    QList<MarkLine> m_markLines;
    QList<EventMark> m_marks;
    QStringList m_excluded;
    QString m_emptyText;
};

} // namespace drasim::ui
