// Registers the door's methods. Each concern adds its module here with one import line.
import './send';
import './tasks';
import './list';
import './session';
import './end-session';
import '../stream/methods'; // issue 7: SendStreamingMessage, SubscribeToTask, murmur.WatchSession
import '../push/methods'; // issue 7: the four push-config methods
