package testpods
import ("testing";"time";"runtime";"unsafe";corev1 "k8s.io/api/core/v1")
func TestProbe(t *testing.T){
	runtime.GC(); var m0,m1 runtime.MemStats; runtime.ReadMemStats(&m0)
	st:=time.Now(); pods:=Generate(Default); t.Log("gen",time.Since(st), len(pods))
	runtime.GC(); runtime.ReadMemStats(&m1); t.Log("heap/pod", (m1.HeapAlloc-m0.HeapAlloc)/uint64(len(pods)), "sizeof", unsafe.Sizeof(corev1.Pod{}))
	tot:=0; mn,mx:=1<<30,0
	for _,p:=range pods{b,_:=p.Marshal(); tot+=len(b); mn=min(mn,len(b)); mx=max(mx,len(b))}
	t.Log("proto avg", tot/len(pods), mn, mx)
	apps:=map[string]int{}; nodes:=map[string]int{}
	for _,p:=range pods{apps[p.Labels["app"]]++; nodes[p.Spec.NodeName]++}
	t.Log("apps", len(apps), "nodes", len(nodes), apps["redis"], apps[SharedApp(0,0)], apps[SharedApp(55,3)])
	t.Log(pods[12345].Name, pods[12345].Namespace, pods[12345].Spec.NodeName)
	runtime.KeepAlive(pods)
}
