import HTML

/// The scripts of the sign-in widget and the helper frame: fixed text, no interpolation, so they
/// are trusted fragments; the data they need comes from the page (forms, JSON elements). ES5
/// only, as the official pages keep to, for the browsers apps embed. Global names (`toggleForm`,
/// `validateForm`, `runAutogen`, `finishWithUser`, `saveAuthEvent`) are the official widget's:
/// browser tests wait for them.
enum SignInWidgetScript {
    /// Hands an answer of `POST /emulator/auth/handler` (see `AuthEventDelivery.answer`) to the app.
    static let delivery = HTML(trusted: #"""

        function showFailure(message) {
          var box = document.getElementById('widget-error');
          box.textContent = message;
          box.hidden = false;
        }

        function showStatus(message) {
          var box = document.getElementById('widget-status');
          if (box) { box.textContent = message; box.hidden = false; }
        }

        function saveAuthEvent(answer) {
          if (answer.delivery === 'opener') {
            var problem = sendAuthEventViaIframeRelay(answer);
            if (problem) { showFailure(problem); } else { showStatus('Signed in. The app closes this window.'); }
          } else if (answer.delivery === 'redirect') {
            // The helper frame of the page at redirectUrl reads it back (same origin as this page).
            sessionStorage.setItem('firebase:redirectEvent:' + answer.storageKey, JSON.stringify(answer.authEvent));
            window.location.assign(answer.location);
          } else {
            window.location.replace(answer.location);
          }
        }

        // The SDK's helper frame is the opener's frame on this origin whose query names the same
        // apiKey and appName. Reading another origin's location throws: those frames are skipped.
        function sendAuthEventViaIframeRelay(answer) {
          var opener = window.opener;
          if (!opener) { return 'The window that opened this sign-in is gone, so nothing can receive the result.'; }
          var sent = false;
          for (var i = 0; i < opener.frames.length; i++) {
            try {
              var frame = opener.frames[i];
              var frameQuery = new URLSearchParams(frame.location.search);
              if (frameQuery.get('apiKey') !== answer.apiKey || frameQuery.get('appName') !== answer.appName) { continue; }
              frame.postMessage({
                data: {authEvent: answer.authEvent, storageKey: answer.storageKey},
                eventId: randomDigits(20),
                eventType: 'sendAuthEvent'
              }, window.location.origin);
              sent = true;
            } catch (notSameOrigin) {}
          }
          if (sent) { return ''; }
          return 'No matching frame: the opener has no /emulator/auth/iframe frame for apiKey ' + answer.apiKey +
            ' and appName ' + answer.appName + ', so it cannot receive the result.';
        }

        function randomDigits(count) {
          var digits = '';
          for (var i = 0; i < count; i++) { digits += Math.floor(Math.random() * 10); }
          return digits;
        }

        """#)

    /// The widget page: the account list, the new-account form and their hooks.
    static let widget = HTML(trusted: #"""

        var pending = false;

        function toggleForm(showForm) {
          document.getElementById('add-user').style.display = showForm ? 'block' : 'none';
          document.getElementById('accounts-list').style.display = showForm ? 'none' : 'block';
        }

        // As the official widget: only the email is checked, and a bad one disables #sign-in.
        function validateForm() {
          var email = document.getElementById('email-input').value;
          var problem = !email ? 'Email required' : (email.indexOf('@') < 0 ? 'Missing "@"' : '');
          document.getElementById('email-error').textContent = problem;
          document.getElementById('sign-in').disabled = problem !== '';
          return problem === '';
        }

        function runAutogen() {
          var words = ['raccoon', 'olive', 'orange', 'chicken', 'mountain', 'peach', 'panda', 'grass', 'algae', 'otter'];
          function pick() { return words[Math.floor(Math.random() * words.length)]; }
          function capitalized(word) { return word.charAt(0).toUpperCase() + word.slice(1); }
          var given = pick(), family = pick();
          var values = {
            'email-input': given + '.' + family + '.' + Math.floor(Math.random() * 1000) + '@example.com',
            'display-name-input': capitalized(given) + ' ' + capitalized(family),
            'screen-name-input': family + '_' + given
          };
          for (var id in values) {
            var input = document.getElementById(id);
            input.value = values[id];
            input.dispatchEvent(new Event('input'));
          }
        }

        // The server mints the fake provider's signed token for the form's account and says where
        // the auth event goes; the page then delivers it as the official widget does.
        function finishWithUser(form) {
          if (pending) { return; }
          pending = true;
          var body = new URLSearchParams(new FormData(form));
          fetch(form.action, {method: 'POST', body: body, headers: {'Accept': 'application/json'}, credentials: 'same-origin'})
            .then(function (response) {
              if (response.ok) { return response.json(); }
              return response.text().then(function (text) {
                var alert = new DOMParser().parseFromString(text, 'text/html').querySelector('[role=alert]');
                throw new Error(alert ? alert.textContent : 'The emulator answered HTTP ' + response.status + '.');
              });
            })
            .then(saveAuthEvent)
            .catch(function (error) { showFailure(error.message); })
            .then(function () { pending = false; });
        }

        [].forEach.call(document.querySelectorAll('.js-reuse-account'), function (item) {
          function choose(event) {
            event.preventDefault();
            finishWithUser(item.querySelector('form'));
          }
          item.addEventListener('click', choose);
          item.addEventListener('keydown', function (event) { if (event.key === 'Enter') { choose(event); } });
        });

        // A photo that does not load (an offline host, a typo) leaves the initial behind it.
        [].forEach.call(document.querySelectorAll('.profile-photo img'), function (image) {
          function drop() { image.parentNode.removeChild(image); }
          if (image.complete && image.naturalWidth === 0) { drop(); } else { image.addEventListener('error', drop); }
        });

        document.querySelector('.js-new-account').addEventListener('click', function (event) {
          event.preventDefault();
          toggleForm(true);
        });
        document.getElementById('back-button').addEventListener('click', function () { toggleForm(false); });
        document.getElementById('autogen-button').addEventListener('click', runAutogen);
        [].forEach.call(document.querySelectorAll('#main-form input[type=text]'), function (input) {
          input.addEventListener('input', validateForm);
        });
        document.getElementById('main-form').addEventListener('submit', function (event) {
          event.preventDefault();
          if (validateForm()) { finishWithUser(event.target); }
        });

        """#)

    /// The page a no-JavaScript form post of a web flow gets: deliver the embedded answer.
    static let deliverEmbeddedAnswer = HTML(trusted: #"""
        saveAuthEvent(JSON.parse(document.getElementById('auth-answer').textContent));

        """#)

    /// `/emulator/auth/iframe` (reference §4.2): gets events from the widget by `postMessage`
    /// (or, after a redirect, from session storage) and sends them to the SDK over gapi's iframe
    /// channel, which is how the SDK listens.
    static let helperIframe = HTML(trusted: #"""

        var helperConfig = JSON.parse(document.getElementById('helper-config').textContent);
        var storageName = 'firebase:redirectEvent:' + helperConfig.storageKey;
        var parentFrame = null;

        window.addEventListener('message', function (event) {
          var message = event.data;
          if (!message || typeof message !== 'object' || message.eventType !== 'sendAuthEvent' || !message.data) { return; }
          // Only the widget, on this origin, sends these; it names the frame it meant.
          if (event.origin !== window.location.origin) { return; }
          if (message.data.storageKey !== helperConfig.storageKey) {
            console.error('Auth Emulator: an auth event for ' + message.data.storageKey + ' reached the frame of ' + helperConfig.storageKey);
            return;
          }
          if (parentFrame) {
            sendAuthEvent(message.data.authEvent);
          } else {
            sessionStorage.setItem(storageName, JSON.stringify(message.data.authEvent)); // sent once the channel is up
          }
        });

        function sendAuthEvent(authEvent) {
          var message = {type: 'authEvent', authEvent: authEvent || {type: 'unknown', error: {code: 'auth/no-auth-event'}}};
          parentFrame.send('authEvent', message, function (responses) {
            if (!responses || !responses.length || responses[responses.length - 1].status !== 'ACK') {
              console.error('Auth Emulator: the SDK did not acknowledge the auth event.');
            }
          }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
        }

        function startRelay() {
          parentFrame = gapi.iframes.getContext().getParentIframe();
          // The SDK waits for this answer before it opens a popup; the storage itself is not needed.
          parentFrame.register('webStorageSupport', function () {
            return {status: 'ACK', webStorageSupport: true};
          }, gapi.iframes.CROSS_ORIGIN_IFRAMES_FILTER);
          var stored = sessionStorage.getItem(storageName);
          sessionStorage.removeItem(storageName);
          var authEvent = null;
          try { authEvent = stored ? JSON.parse(stored) : null; } catch (unreadable) {
            console.error('Auth Emulator: the stored auth event is not JSON.');
          }
          sendAuthEvent(authEvent);
        }

        window.gapi_onload = function () {
          gapi.load('gapi.iframes', {
            callback: startRelay,
            timeout: 10000,
            ontimeout: function () {
              console.error('Auth Emulator: gapi.iframes did not load from apis.google.com; check the internet connection.');
            }
          });
        };

        """#)
}
