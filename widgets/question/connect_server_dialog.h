#pragma once
// File ▸ Connect to Server…: the URL of a `once serve` and its API key. Connect checks them on
// the session's RemoteConnection (a worker: the dialog stays responsive and can cancel) and shows
// the server's refusal or the network error in the dialog; it closes once connected. The key is
// kept in memory unless "Remember the key" is ticked, which writes it in plain text to the
// settings file — the dialog names that file before the user agrees.
#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace once::studio {

class RemoteConnection;

class ConnectServerDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ConnectServerDialog(RemoteConnection* connection, QWidget* parent = nullptr);

    QLineEdit* urlEdit() const { return url_; }
    QLineEdit* keyEdit() const { return key_; }
    QCheckBox* rememberKeyBox() const { return rememberKey_; }
    QPushButton* connectButton() const { return connect_; }
    /// The plain-text warning shown while "Remember the key" is ticked.
    QLabel* keyWarning() const { return keyWarning_; }
    /// "Checking…", then the error of a failed check ("" before).
    QString status() const;

    void reject() override;

  private:
    void startCheck();

    RemoteConnection* connection_;
    QLineEdit* url_;
    QLineEdit* key_;
    QCheckBox* rememberKey_;
    QLabel* keyWarning_;
    QLabel* status_;
    QPushButton* connect_;
};

}  // namespace once::studio
