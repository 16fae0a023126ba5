#include <iostream>
#include <set>

int main() {
    int n;
    std::cin >> n;
    std::set<long long> seen;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        seen.insert(x);
    }
    std::cout << seen.size() << "\n";
}
