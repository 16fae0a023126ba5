#include <iostream>
#include <string>

int main() {
    int n;
    std::cin >> n;
    for (int i = 1; i <= n; i++) std::cout << std::string(i, '*') << "\n";
}
