// Tests start without a kubeconfig: the CLI chooses a cluster from $KUBECONFIG or ~/.kube/config as
// kubectl does (docs/cli.md, "Choosing the target"), and a developer's own cluster must never become the
// target of a test that means the embedded node. A test that means a cluster names its kubeconfig.
import { join } from 'node:path';
import { tmpdir } from 'node:os';

process.env['KUBECONFIG'] = join(tmpdir(), 'streamroute-tests-have-no-kubeconfig');
delete process.env['STREAMROUTE_KUBECONFIG'];
delete process.env['STREAMROUTE_SERVER'];
