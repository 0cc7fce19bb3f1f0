package testcluster

import (
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// WriteKubeconfig writes a kubeconfig for the cluster to path: its server,
// CA and token, in one context whose default namespace is namespace (empty:
// "default"). Tools that take --kubeconfig can then use the cluster; the
// file stays valid across RestartAPIServer.
func (c *Cluster) WriteKubeconfig(path, namespace string) error {
	config := c.Config()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["testcluster"] = &clientcmdapi.Cluster{Server: config.Host, CertificateAuthorityData: config.CAData}
	kc.AuthInfos["testcluster"] = &clientcmdapi.AuthInfo{Token: config.BearerToken}
	kc.Contexts["testcluster"] = &clientcmdapi.Context{Cluster: "testcluster", AuthInfo: "testcluster", Namespace: namespace}
	kc.CurrentContext = "testcluster"
	return clientcmd.WriteToFile(*kc, path)
}
