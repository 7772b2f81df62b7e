// Connect after connect in one JVM (client and server on one loop), NIO or UCX: the first, 2nd and 10th connect and the
// last half's median and 90th percentile. Scratch measurement: java -cp out:CLASSPATH ManyConnects nio|ucx COUNT
import io.netty.bootstrap.*;
import io.netty.channel.*;
import io.netty.channel.nio.*;
import io.netty.channel.socket.nio.*;
import io.github.nettyucx.transport.*;
import java.net.*;
import java.util.*;
public class ManyConnects { public static void main(String[] a) throws Exception {
  boolean nio = a[0].equals("nio"); int n = Integer.parseInt(a[1]);
  EventLoopGroup group = nio ? new NioEventLoopGroup(1) : new UcxEventLoopGroup(1);
  Class<? extends ServerChannel> sc = nio ? NioServerSocketChannel.class : UcxServerSocketChannel.class;
  Class<? extends Channel> cc = nio ? NioSocketChannel.class : UcxSocketChannel.class;
  Channel server = new ServerBootstrap().group(group).channel(sc).childHandler(new ChannelInitializer<Channel>() { protected void initChannel(Channel ch) {} })
      .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
  long[] t = new long[n];
  for (int i = 0; i < n; i++) {
    long t0 = System.nanoTime();
    Channel c = new Bootstrap().group(group).channel(cc).handler(new ChannelInboundHandlerAdapter()).connect(server.localAddress()).sync().channel();
    t[i] = System.nanoTime() - t0;
    c.close().sync();
  }
  long[] last = Arrays.copyOfRange(t, n / 2, n); Arrays.sort(last);
  System.out.printf("%s: first %.1f ms, 2nd %.1f, 10th %.1f; last half p50 %.0f us p90 %.0f us%n", a[0], t[0]/1e6, t[1]/1e6, t[9]/1e6, last[last.length/2]/1e3, last[last.length*9/10]/1e3);
  System.out.flush(); System.exit(0);
}}
