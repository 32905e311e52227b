// DynamoDB Local 1.25.1 on 127.0.0.1 only. Its command line has no host option, and its Jetty
// server is made with `new Server(port)`, which listens on every interface: this launcher makes
// the server from the same command line (ServerRunner), sets the host of its connectors to
// loopback before it starts, and starts it. Run in Java's source-file mode (no build step):
// java -cp DynamoDBLocal.jar LoopbackDynamoDbLocal.java -port 8000 -inMemory ...
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field serverField = DynamoDBProxyServer.class.getDeclaredField("server");
    serverField.setAccessible(true);
    Server server = (Server) serverField.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
  }
}
