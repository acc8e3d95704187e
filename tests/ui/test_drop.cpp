// SPDX-License-Identifier: Apache-2.0
// Dropping files on the window opens them; a drag that carries no local file is refused.
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSignalSpy>
#include <QTabWidget>
#include <QUrl>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/mainwindow.h"
#include "ui/models/object_tree_model.h"
#include "ui/pages/editor_page.h"
#include "ui/widgets/code_editor.h"

using drasim::ui::MainWindow;

TEST(MainWindowDrop, DroppedManifestOpens)
{
    MainWindow w;
    w.show();
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(sourcePath("scenarios/basic/cluster.yaml")) });

    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    EXPECT_TRUE(enter.isAccepted());

    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    EXPECT_TRUE(drop.isAccepted());
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_EQ(w.objectModel()->rowCount(), 6);
    EXPECT_TRUE(w.windowTitle().startsWith(QStringLiteral("cluster.yaml")));
}

TEST(MainWindowDrop, DragWithoutLocalFilesIsRefused)
{
    MainWindow w;
    QMimeData mime;
    mime.setUrls({ QUrl(QStringLiteral("https://example.org/cluster.yaml")) });
    mime.setText(QStringLiteral("kind: Pod"));
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    enter.setAccepted(false);
    QApplication::sendEvent(&w, &enter);
    EXPECT_FALSE(enter.isAccepted());
}

TEST(MainWindowDrop, DroppedFolderOpensItsManifests)
{
    MainWindow w;
    w.show();
    const QString folder = sourcePath("scenarios/learn/13-pending-pod");
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(folder) });
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    EXPECT_TRUE(drop.isAccepted());
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_EQ(w.document()->paths(), QStringList { folder });
    EXPECT_GT(w.document()->files().size(), 1); // every manifest of the folder
    EXPECT_GT(w.objectModel()->rowCount(), 0);
}

TEST(MainWindowDrop, AFileDroppedOnTheEditorOpensInsteadOfBeingTyped)
{
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    w.pages()->setCurrentWidget(w.editorPage());
    drasim::ui::CodeEditor* editor = w.editorPage()->editor();
    editor->setPlainText(QStringLiteral("kind: Pod\n"));
    const QString file = sourcePath("scenarios/basic/cluster.yaml");
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(file) });
    mime.setText(file); // as file managers send it
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    const QPoint at = editor->viewport()->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(editor->viewport(), &enter);
    EXPECT_TRUE(enter.isAccepted()); // by the window, the editor passed it on
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(editor->viewport(), &drop);
    ASSERT_TRUE(opened.wait(20000));
    EXPECT_EQ(w.document()->paths(), QStringList { file });
    EXPECT_FALSE(editor->toPlainText().contains(file)); // not typed into the text
}
