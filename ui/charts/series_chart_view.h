// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QChartView>
#include <QString>

class QLineSeries;
class QValueAxis;

namespace drasim::ui {

class RunSeriesModel;

/// A line chart over the columns of a RunSeriesModel whose series name starts with a prefix
/// ("pods." shows pending and running pods; "utilization.model/" one line per GPU model). Lines are
/// added as their series appear; axes grow with the data. All Qt Charts use lives in ui/charts.
class SeriesChartView : public QChartView
{
    Q_OBJECT
public:
    SeriesChartView(const QString& title, const QString& seriesPrefix, const QString& yTitle, bool percent,
                    RunSeriesModel* model, QWidget* parent = nullptr);

    int lineCount() const;

private:
    void addLine(const QString& name, int column);
    void appendRows(int firstRow, int lastRow);
    void appendPoints(int line, int firstRow, int lastRow);
    void updateAxes(int lastRow);

    QString m_prefix;
    bool m_percent;
    RunSeriesModel* m_model;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QList<int> m_columns;       // model columns shown, parallel to m_lines
    QList<QLineSeries*> m_lines;
    double m_maxX = 1;
    double m_maxY = 1;
};

} // namespace drasim::ui
